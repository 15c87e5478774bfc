package main

import (
	"io"
	"strings"
	"testing"
)

func TestLoopbackOnly(t *testing.T) {
	for url, want := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://localhost:8080/": true, "http://[::1]:8080": true,
		"http://127.3.4.5": true, "http://10.0.0.1:8080": false, "http://192.168.1.2": false,
		"http://example.com": false, "https://127.0.0.1": false, "127.0.0.1:8080": false, "": false,
	} {
		if got := loopback(url); got != want {
			t.Errorf("loopback(%q) = %t, want %t", url, got, want)
		}
	}
}

func TestRefusesBeforeSendingAnything(t *testing.T) {
	var stderr strings.Builder
	for _, args := range [][]string{
		{"-url", "http://10.1.2.3:8080"},
		{"-duration", "1s"},
		{"-no-such-flag"},
		{"-rate", "100", "-url", "http://10.1.2.3:8080"},
	} {
		stderr.Reset()
		if code := run(args, io.Discard, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}
