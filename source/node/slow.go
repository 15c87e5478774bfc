package node

import (
	"fmt"
	"time"
)

// A node is benched as slow when its latency average is slowRatio times the fastest
// other node's and slowGap above it, after slowAnswers answers (one stalled answer is not
// a slow node). It then sits out at least slowBench: asking it again costs its latency
// once (a status poll waits for every node asked), so it is not asked often.
const (
	slowRatio   = 8
	slowGap     = 300 * time.Millisecond
	slowAnswers = 2
	slowBench   = 30 * time.Second
)

// sawAnswer records an answer of m that took d and benches m when it is far slower than
// the fastest other node that is not benched.
func (s *Source) sawAnswer(m *member, d time.Duration) {
	latency, answers := m.health.answered(d)
	if len(s.members) < 2 || answers < slowAnswers {
		return
	}
	now := time.Now()
	fastest, found := s.fastestBut(m, now)
	if !found || latency < slowRatio*fastest || latency-fastest < slowGap || m.health.benched(now) {
		return
	}
	until := m.health.benchAtLeast(now, slowBench)
	s.benched(m, until, fmt.Errorf("%w: it answers in %s on average, another node in %s",
		errSlow, latency.Round(time.Millisecond), fastest.Round(time.Millisecond)))
}

// errSlow marks a node benched for its latency.
var errSlow = fmt.Errorf("%w: the node is far slower than another", errUnavailable)

// fastestBut is the lowest latency average of the nodes other than m that answered and
// sit in.
func (s *Source) fastestBut(m *member, now time.Time) (time.Duration, bool) {
	var fastest time.Duration
	found := false
	for _, o := range s.members {
		if o == m || o.health.benched(now) {
			continue
		}
		if latency, answers := o.health.roundTrip(); answers > 0 && (!found || latency < fastest) {
			fastest, found = latency, true
		}
	}
	return fastest, found
}
