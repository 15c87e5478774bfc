package testcontainers

import (
	"os/exec"
	"runtime"
	"sync"
)

// The kernel sends a child its Pdeathsig when the OS *thread* that forked it ends, not
// the process (go.dev/issue/27505), and Go ends threads, e.g. one whose goroutine exits
// while locked to it. Children tied to this process are therefore started from one
// thread that lives as long as the process: a goroutine locked to it that never returns.
var spawner struct {
	once sync.Once
	jobs chan func()
}

// startTied starts cmd from the spawner thread.
func startTied(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.jobs = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread stays, and only this goroutine runs on it
			for job := range spawner.jobs {
				job()
			}
		}()
	})
	errc := make(chan error, 1)
	spawner.jobs <- func() { errc <- cmd.Start() }
	return <-errc
}
