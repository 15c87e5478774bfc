// Package secret reads secrets (passwords, tokens) from the environment or from files,
// so that a deployment can keep them out of the process environment (/proc/PID/environ,
// docker inspect): NAME holds the secret itself, NAME_FILE the path of a file holding it.
package secret

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
)

// Lookup returns the secret NAME gives: $NAME, or the content of the file $NAME_FILE
// (trimmed), "" when neither is set; both set is an error.
func Lookup(getenv func(string) string, name string) (string, error) {
	value, file := getenv(name), getenv(name+"_FILE")
	switch {
	case value != "" && file != "":
		return "", fmt.Errorf("both %s and %s_FILE are set: give the secret once", name, name)
	case file != "":
		return ReadFile(file, name+"_FILE")
	}
	return value, nil
}

// ReadFile reads a secret from path (trimmed); what names where the path came from. A
// file others than its owner may read is used, with a warning.
func ReadFile(path, what string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		slog.Warn("a secret's file is readable by others than its owner (chmod 600 it)",
			"from", what, "file", path, "mode", info.Mode().Perm().String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return strings.TrimSpace(string(b)), nil
}
