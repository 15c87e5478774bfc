// Package iotajs runs this folder's checks with IOTA's own JavaScript client,
// @iota/iota.js (pinned in package.json), from Go tests: it finds node and npm, installs
// the pinned packages once, and runs a script here with a file of inputs.
package iotajs

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Dir is this folder, wherever the test runs from.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Run installs the pinned packages if needed and runs `node args...` here (a script
// and its arguments) within timeout; it skips the test when node or npm is missing (and
// under -short), and fails it when the script exits non-zero. It returns the output.
func Run(t testing.TB, timeout time.Duration, args ...string) string {
	t.Helper()
	node, npm := Require(t)
	install(t, npm)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = Dir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("iota.js %v failed (%v):\n%s", args, err, out)
	}
	return string(out)
}

// Node is node, with the pinned packages installed here if needed, for a script run beside
// the test (cmd.Dir = Dir()); it skips the test as Require does.
func Node(t testing.TB) string {
	t.Helper()
	node, npm := Require(t)
	install(t, npm)
	return node
}

// Require skips the test under -short or when node or npm is not on PATH (call it
// before costly setup), and returns their paths.
func Require(t testing.TB) (node, npm string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the iota.js checks install an npm package")
	}
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Skip("node and npm are not both on PATH: cannot run @iota/iota.js")
	}
	return node, npm
}

// install runs npm ci here unless the pinned packages are already installed.
func install(t testing.TB, npm string) {
	t.Helper()
	var pkg struct{ Dependencies map[string]string }
	b, err := os.ReadFile(filepath.Join(Dir(), "package.json"))
	if err != nil || json.Unmarshal(b, &pkg) != nil {
		t.Fatalf("compat/iotajs/package.json: %v", err)
	}
	installed := true
	for name, version := range pkg.Dependencies {
		var got struct{ Version string }
		b, err := os.ReadFile(filepath.Join(Dir(), "node_modules", name, "package.json"))
		installed = installed && err == nil && json.Unmarshal(b, &got) == nil && got.Version == version
	}
	if installed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = Dir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", Dir(), err, out)
	}
}
