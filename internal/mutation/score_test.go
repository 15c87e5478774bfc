package mutation

import (
	"strings"
	"testing"
)

// The profile of a switch: the block before it and the case bodies are blocks; the case
// expression on line 4 is in none.
const profile = `mode: set
example.org/p/f.go:2.20,3.10 1 1
example.org/p/f.go:4.15,5.12 1 1
example.org/p/f.go:7.2,7.30 1 0
`

const gremlins = `{"files":[{"file_name":"f.go","mutations":[
{"type":"ARITHMETIC_BASE","status":"KILLED","line":2,"column":25},
{"type":"ARITHMETIC_BASE","status":"KILLED","line":5,"column":3},
{"type":"CONDITIONALS_NEGATION","status":"LIVED","line":3,"column":5},
{"type":"CONDITIONALS_NEGATION","status":"NOT COVERED","line":4,"column":7},
{"type":"CONDITIONALS_NEGATION","status":"NOT COVERED","line":7,"column":10},
{"type":"ARITHMETIC_BASE","status":"TIMED OUT","line":5,"column":8}]}]}`

func TestScoreCountsMutantsOutsideEveryBlockApart(t *testing.T) {
	ms, err := ReadGremlins(strings.NewReader(gremlins))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := ReadProfile(strings.NewReader(profile))
	if err != nil {
		t.Fatal(err)
	}
	got := Score("p", "example.org/p", ms, blocks)
	want := Row{Package: "p", Killed: 2, Lived: 1, NotCovered: 2, TimedOut: 1, Outside: 1,
		Efficacy: 200.0 / 3, Coverage: 60, ReachableCoverage: 75}
	if got != want {
		t.Fatalf("Score = %+v, want %+v", got, want)
	}
	if line := got.Format(); !strings.HasPrefix(line, "p ") || !strings.Contains(line, "66.67%    60.00%    75.00%") {
		t.Fatalf("Format = %q", line)
	}
}

func TestBlockHoldsByGremlinsRule(t *testing.T) {
	b := Block{StartLine: 2, StartCol: 20, EndLine: 4, EndCol: 10}
	for _, c := range []struct {
		line, col int
		want      bool
	}{{1, 30, false}, {2, 19, false}, {2, 20, true}, {3, 1, true}, {4, 10, true}, {4, 11, false}, {5, 1, false}} {
		if got := b.holds(c.line, c.col); got != c.want {
			t.Errorf("holds(%d, %d) = %v, want %v", c.line, c.col, got, c.want)
		}
	}
	one := Block{StartLine: 7, StartCol: 2, EndLine: 7, EndCol: 30}
	if one.holds(7, 1) || !one.holds(7, 30) || one.holds(7, 31) {
		t.Error("a one-line block holds only its columns")
	}
}

func TestReadProfileRefusesABadLine(t *testing.T) {
	for _, bad := range []string{"mode: set\nno colon here", "mode: set\nf.go:2.20-3.10 1 1", "mode: set\nf.go:x.1,3.10 1 1"} {
		if _, err := ReadProfile(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadProfile(%q) = nil error", bad)
		}
	}
}
