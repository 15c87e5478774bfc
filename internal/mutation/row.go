package mutation

import (
	"fmt"
	"strings"
)

// Row is one package's line of the mutation table.
type Row struct {
	Package                               string
	Killed, Lived, NotCovered, TimedOut   int
	NotViable                             int
	Outside                               int // not covered and in no coverage block
	Efficacy, Coverage, ReachableCoverage float64
}

// Score counts the mutants of one package. pkgPath is the package's import path, the
// prefix of its files in the profile's blocks.
func Score(pkg, pkgPath string, ms []Mutant, blocks map[string][]Block) Row {
	r := Row{Package: pkg}
	for _, m := range ms {
		switch m.Status {
		case Killed:
			r.Killed++
		case Lived:
			r.Lived++
		case TimedOut:
			r.TimedOut++
		case NotViable:
			r.NotViable++
		case NotCovered:
			r.NotCovered++
			if !inAnyBlock(blocks[pkgPath+"/"+m.File], m) {
				r.Outside++
			}
		}
	}
	r.Efficacy = percent(r.Killed, r.Killed+r.Lived)
	r.Coverage = percent(r.Killed+r.Lived, r.Killed+r.Lived+r.NotCovered)
	r.ReachableCoverage = percent(r.Killed+r.Lived, r.Killed+r.Lived+r.NotCovered-r.Outside)
	return r
}

func inAnyBlock(blocks []Block, m Mutant) bool {
	for _, b := range blocks {
		if b.holds(m.Line, m.Column) {
			return true
		}
	}
	return false
}

func percent(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}

// Header is the table's first line, for Format's rows.
func Header() string {
	return fmt.Sprintf("%-18s %9s %9s %9s %7s %6s %7s %8s %8s", "package", "efficacy", "mcoverage",
		"reachable", "killed", "lived", "notcov", "outside", "timedout")
}

// Format prints the row under Header: efficacy and mutator coverage as gremlins computes
// them, the coverage of the mutants inside coverage blocks (reachable), and the counts.
func (r Row) Format() string {
	return strings.TrimRight(fmt.Sprintf("%-18s %8.2f%% %8.2f%% %8.2f%% %7d %6d %7d %8d %8d", r.Package,
		r.Efficacy, r.Coverage, r.ReachableCoverage, r.Killed, r.Lived, r.NotCovered, r.Outside, r.TimedOut), " ")
}
