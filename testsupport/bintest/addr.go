package bintest

import (
	"net"
	"testing"
)

// FreeAddr is a loopback address no listener holds now, for a server's listen address
// (an -ops-addr, an -addr). Another process may take it before the server does; tests
// accept that rare failure rather than pass listeners around.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
