package mutation

import (
	"errors"
	"testing"
)

func TestMutateReplacesTheTokenAtThePosition(t *testing.T) {
	src := []byte("package p\n\nfunc f(a, b int) bool { return a-b < -1 }\n")
	for _, tc := range []struct {
		col  int
		typ  string
		want string
	}{
		{33, "ARITHMETIC_BASE", "return a+b < -1"},
		{36, "CONDITIONALS_BOUNDARY", "return a-b <= -1"},
		{36, "CONDITIONALS_NEGATION", "return a-b >= -1"},
		{38, "INVERT_NEGATIVES", "return a-b < +1"},
	} {
		got, err := Mutate(src, 3, tc.col, tc.typ)
		if err != nil {
			t.Fatalf("%s at 3:%d: %v", tc.typ, tc.col, err)
		}
		if want := "package p\n\nfunc f(a, b int) bool { " + tc.want + " }\n"; string(got) != want {
			t.Fatalf("%s at 3:%d:\n%s\nwant\n%s", tc.typ, tc.col, got, want)
		}
	}
	if _, err := Mutate(src, 3, 32, "ARITHMETIC_BASE"); !errors.Is(err, errNoMutation) {
		t.Fatalf("a mutation on an identifier: %v, want errNoMutation", err)
	}
}
