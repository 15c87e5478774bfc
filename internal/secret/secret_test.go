package secret

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	for _, c := range []struct {
		vars     map[string]string
		want     string
		wantErrs string
	}{
		{map[string]string{}, "", ""},
		{map[string]string{"PW": "direct"}, "direct", ""},
		{map[string]string{"PW_FILE": file}, "from-file", ""},
		{map[string]string{"PW": "direct", "PW_FILE": file}, "", "both PW and PW_FILE"},
		{map[string]string{"PW_FILE": file + ".missing"}, "", "PW_FILE"},
	} {
		got, err := Lookup(env(c.vars), "PW")
		if got != c.want || (c.wantErrs == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.wantErrs)) {
			t.Errorf("%v: %q, %v; want %q, error containing %q", c.vars, got, err, c.want, c.wantErrs)
		}
	}
}
