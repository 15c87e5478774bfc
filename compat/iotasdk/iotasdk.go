// Package iotasdk runs this folder's checks with IOTA's official SDK, iota-sdk (its
// Python bindings over the Rust client, pinned in requirements.txt), from Go tests: it
// finds python3, makes a virtual environment under the repository's .dev/ once with the
// pinned version installed, and runs a script here with its arguments.
package iotasdk

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Dir is this folder, wherever the test runs from.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// VenvDir is the virtual environment the SDK is installed in: .dev/iotasdk-venv at the
// repository's root (.dev/ holds what the project installs for itself, and is not
// committed).
func VenvDir() string { return filepath.Join(Dir(), "..", "..", ".dev", "iotasdk-venv") }

// Run installs the pinned SDK if needed and runs the venv's `python args...` here (a
// script and its arguments) within timeout; it skips the test when python3 is missing
// (and under -short), and fails it when the install fails or the script exits non-zero.
// It returns the output.
func Run(t testing.TB, timeout time.Duration, args ...string) string {
	t.Helper()
	python := Require(t)
	venvPython := install(t, python)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, venvPython, args...)
	cmd.Dir = Dir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("iota-sdk %v failed (%v):\n%s", args, err, out)
	}
	return string(out)
}

// Python is the venv's python with the pinned SDK, installed if needed, for a script run
// beside the test (cmd.Dir = Dir()); it skips the test as Require does.
func Python(t testing.TB) string {
	t.Helper()
	return install(t, Require(t))
}

// Require skips the test under -short or when python3 is not on PATH (call it before
// costly setup), and returns its path.
func Require(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the iota-sdk checks install a Python package")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: cannot run iota-sdk")
	}
	return python
}

// Pinned is the requirement requirements.txt pins ("iota-sdk==1.1.4").
func Pinned() (name, version string, err error) {
	f, err := os.Open(filepath.Join(Dir(), "requirements.txt"))
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, version, ok := strings.Cut(line, "=="); ok {
			return name, version, nil
		}
		return "", "", fmt.Errorf("requirements.txt: %q is not pinned to an exact version (name==version)", line)
	}
	return "", "", fmt.Errorf("requirements.txt: no requirement")
}

// install makes the venv with the pinned SDK unless it is there already, and returns its
// python. A new venv is built aside and renamed into place, so that a run stopped
// halfway never leaves a half-installed one in use.
func install(t testing.TB, python string) string {
	t.Helper()
	name, version, err := Pinned()
	if err != nil {
		t.Fatalf("compat/iotasdk: %v", err)
	}
	venv := VenvDir()
	venvPython := filepath.Join(venv, "bin", "python")
	if installedVersion(venvPython, name) == version {
		return venvPython
	}
	if err := os.MkdirAll(filepath.Dir(venv), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(venv), "iotasdk-venv.new-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	steps := [][]string{{python, "-m", "venv", tmp},
		{filepath.Join(tmp, "bin", "python"), "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
			"--quiet", name + "==" + version}}
	for _, step := range steps {
		if out, err := exec.CommandContext(ctx, step[0], step[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("installing %s==%s into %s: %v: %v\n%s", name, version, venv, step, err, out)
		}
	}
	// Only bin/python is run (never the scripts that name the venv's first path), so the
	// venv works where it is renamed to.
	_ = os.RemoveAll(venv)
	if err := os.Rename(tmp, venv); err != nil && installedVersion(venvPython, name) != version {
		t.Fatalf("moving the new venv into %s: %v", venv, err)
	}
	if got := installedVersion(venvPython, name); got != version {
		t.Fatalf("%s in %s is %q after the install, want %s", name, venv, got, version)
	}
	return venvPython
}

// installedVersion is the version of package name in the venv of python ("" when
// there is no such venv or package).
func installedVersion(python, name string) string {
	out, err := exec.Command(python, "-c",
		"import importlib.metadata as m, sys; print(m.version(sys.argv[1]))", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
