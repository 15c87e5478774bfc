package authtls_test

import (
	"os/exec"
	"syscall"
	"testing"
)

// startAPI starts the API binary as the read-only role with args, waits until it serves
// and returns its base URL; it ends with the test, its output going to out.
func (e *secureEnv) startAPI(t *testing.T, out *transcript, ca string, args ...string) string {
	addr := freeAddr(t)
	cmd := exec.Command(e.apiBin, append([]string{"-addr", addr}, args...)...)
	cmd.Env = e.clientEnv(e.reader, e.reader.password, ca)
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited
		out.add(logs.String())
	})
	base := "http://" + addr
	waitServing(t, base, exited, logs)
	return base
}
