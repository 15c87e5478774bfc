package authtls_test

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/logbuf"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
)

// startAPI starts the API binary as the read-only role with args, waits until it serves
// and returns its base URL; it ends with the test, its output going to out (and to the
// test's log when the test failed).
func (e *secureEnv) startAPI(t *testing.T, out *transcript, ca string, args ...string) string {
	addr := bintest.FreeAddr(t)
	cmd := exec.Command(e.apiBin, append([]string{"-addr", addr}, args...)...)
	cmd.Env = e.clientEnv(e.reader, e.reader.password, ca)
	logs := &logbuf.Buffer{}
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
		if t.Failed() {
			t.Logf("api output:\n%s", lastLines(logs.String(), 20))
		}
	})
	base := "http://" + addr
	waitServing(t, base, exited, logs)
	return base
}

func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
