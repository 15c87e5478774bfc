package main

import "testing"

// -sim-spendable reaches the sim's options; left out, the pool is unbounded.
func TestSimSpendableFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{{nil, 0}, {[]string{"-sim-spendable", "8192"}, 8192}} {
		var f runFlags
		if err := parseFlags("run", c.args, f.register); err != nil {
			t.Fatal(err)
		}
		if got := f.simOptions().SpendableOutputs; got != c.want {
			t.Fatalf("%v: SpendableOutputs %d, want %d", c.args, got, c.want)
		}
	}
}
