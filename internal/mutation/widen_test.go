package mutation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const switchSource = `package p

func f(n int) int {
	switch {
	case n > 1:
		return 1
	}
	return 0
}

func g() int {
	return 2
}
`

// A mutant on the case expression (line 5) lies in no block of Go's profile; widened, the
// profile holds it because f ran. g never ran, so nothing is added for it.
func TestWidenCoversTheCaseExpressionsOfAFunctionThatRan(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "p", "f.go"), []byte(switchSource), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := "mode: set\nexample.org/m/p/f.go:3.19,4.9 1 1\nexample.org/m/p/f.go:5.13,6.11 1 1\n" +
		"example.org/m/p/f.go:8.2,8.10 1 0\nexample.org/m/p/f.go:11.12,13.2 1 0\n"
	caseMutant := Mutant{File: "f.go", Line: 5, Column: 9, Status: NotCovered}
	gMutant := Mutant{File: "f.go", Line: 12, Column: 9, Status: NotCovered}

	before, err := ReadProfile(strings.NewReader(profile))
	if err != nil {
		t.Fatal(err)
	}
	if inAnyBlock(before["example.org/m/p/f.go"], caseMutant) {
		t.Fatal("the case expression is in a block of Go's own profile; the test's premise is wrong")
	}
	var out strings.Builder
	if err := Widen(strings.NewReader(profile), &out, "example.org/m", root); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), profile) {
		t.Fatalf("widened profile lost the original lines:\n%s", out.String())
	}
	after, err := ReadProfile(strings.NewReader(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	added := after["example.org/m/p/f.go"][len(before["example.org/m/p/f.go"]):]
	if want := []Block{{StartLine: 3, StartCol: 1, EndLine: 9, EndCol: 2}}; len(added) != 1 || added[0] != want[0] {
		t.Fatalf("added blocks %v, want %v (f only)", added, want)
	}
	if !inAnyBlock(added, caseMutant) || inAnyBlock(added, gMutant) {
		t.Fatal("the widened block must hold f's case expression and nothing of g")
	}
}
