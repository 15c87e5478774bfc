package errwrap

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer runs the analyzer on testdata/src/bad, whose "// want" comments name every
// call it must report; the calls without one must pass.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "bad")
}

func TestVerbs(t *testing.T) {
	cases := []struct {
		format string
		want   []verb
	}{
		{"a %v b", []verb{{'v', 0}}},
		{"%d%% %s: %w", []verb{{'d', 0}, {'s', 1}, {'w', 2}}},
		{"%*d %-8.3q %+v", []verb{{'d', 1}, {'q', 2}, {'v', 3}}},
		{"%[2]v %[1]w %v", []verb{{'v', 1}, {'w', 0}, {'v', 1}}},
		{"%.*s %#x", []verb{{'s', 1}, {'x', 2}}},
	}
	for _, c := range cases {
		if got := verbs(c.format); !slices.Equal(got, c.want) {
			t.Errorf("verbs(%q) = %v, want %v", c.format, got, c.want)
		}
	}
}
