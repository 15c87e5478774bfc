package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const token = "s3cret-admin-token-for-tests"

// TestAdminToken: the token comes from the file or the environment, not both; a weak
// one is refused; and neither errors nor log lines ever hold it.
func TestAdminToken(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(prev)

	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good", token+"\n", 0o600)
	open := write("open", token, 0o644)
	short := write("short", "tooshort\n", 0o600)
	spaced := write("spaced", "s3cret admin token for tests", 0o600)
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == adminTokenEnv {
				return v
			}
			return ""
		}
	}
	cases := []struct {
		file, env, want, source, err string
	}{
		{"", "", "", "", ""},
		{good, "", token, "file " + good, ""},
		{"", " " + token + "\n", token, "env " + adminTokenEnv, ""},
		{open, "", token, "file " + open, ""}, // works, with a warning
		{good, token, "", "", "both"},
		{short, "", "", "", "at least"},
		{"", "tooshort", "", "", "at least"},
		{spaced, "", "", "", "printable"},
		{filepath.Join(dir, "missing"), "", "", "", "no such file"},
	}
	for _, c := range cases {
		got, source, err := adminToken(c.file, env(c.env))
		switch {
		case c.err == "" && err != nil, c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("adminToken(%q, env %t): error %v, want %q", c.file, c.env != "", err, c.err)
		case string(got) != c.want || source != c.source:
			t.Errorf("adminToken(%q, env %t): token ok %t, source %q; want ok, %q", c.file, c.env != "",
				string(got) == c.want, source, c.source)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("the error %q holds the token", err)
		}
	}
	if !strings.Contains(logs.String(), "readable by others") {
		t.Errorf("no warning about the group/world-readable token file:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "s3cret") {
		t.Errorf("the log holds the token:\n%s", logs.String())
	}
}

func TestParseFlags(t *testing.T) {
	f, err := parseFlags([]string{"-admin-token-file", "/run/secrets/api", "-admin-timeout", "30s"})
	if err != nil || f.adminTokenFile != "/run/secrets/api" || f.adminTimeout.Seconds() != 30 {
		t.Errorf("parseFlags: %+v, %v", f, err)
	}
	if _, err := parseFlags([]string{"-admin-timeout", "0s"}); err == nil {
		t.Error("-admin-timeout 0s accepted")
	}
}
