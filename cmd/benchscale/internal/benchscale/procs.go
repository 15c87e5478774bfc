package benchscale

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// proc is a started bin/indexer or bin/api.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // valid once done is closed
}

// start runs bin/<name> with args, its output going to log, CQL_KEYSPACE set to keyspace
// (the API reads its database from the environment; the indexer gets -keyspace too).
func start(bin, name, keyspace string, log io.Writer, args ...string) (*proc, error) {
	cmd := exec.Command(bin+"/"+name, args...)
	cmd.Env = append(os.Environ(), "CQL_KEYSPACE="+keyspace)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process ended, and how.
func (p *proc) exited() (bool, error) {
	select {
	case <-p.done:
		if p.err == nil {
			return true, fmt.Errorf("%s exited", p.name)
		}
		return true, fmt.Errorf("%s: %w", p.name, p.err)
	default:
		return false, nil
	}
}

// stop asks the process to end (SIGTERM: both commands shut down gracefully) and waits,
// killing it after a minute.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// waitHTTP polls url until it answers 200, the process ends or ctx is done.
func waitHTTP(ctx context.Context, p *proc, url string) error {
	c := &http.Client{Timeout: 2 * time.Second}
	for {
		if ended, err := p.exited(); ended {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), fmt.Errorf("waiting for %s", url))
		case <-time.After(250 * time.Millisecond):
		}
	}
}
