package node

import "time"

// latencyWeight is the weight of a new answer in a latency average.
const latencyWeight = 0.3

// movingAverage is an exponentially weighted average of round trips; its owner
// guards it with its own lock.
type movingAverage struct {
	value time.Duration
	count int // round trips in the average
}

// add weighs d into the average; the first round trip is the average.
func (a *movingAverage) add(d time.Duration) {
	if a.count == 0 {
		a.value = d
	} else {
		a.value += time.Duration(latencyWeight * float64(d-a.value))
	}
	a.count++
}
