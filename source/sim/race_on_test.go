//go:build race

package sim

// raceEnabled lets timing tests stand down under the race detector, which
// slows generation several-fold.
const raceEnabled = true
