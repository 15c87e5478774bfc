package testcontainers

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/template"
	"time"
)

func start(ctx context.Context, dir string) (*Node, error) {
	lib, err := jarDir(ctx)
	if err != nil {
		return nil, err
	}
	n := &Node{Dir: dir, Host: "127.0.0.1"}
	if old, err := loadNode(dir); err == nil {
		n.NativePort, n.StoragePort, n.JMXPort = old.NativePort, old.StoragePort, old.JMXPort
	}
	for _, port := range []*int{&n.NativePort, &n.StoragePort, &n.JMXPort} {
		if portFree(n.Host, *port) {
			continue
		}
		if *port, err = freePort(n.Host); err != nil {
			return nil, err
		}
	}
	if err := boot(ctx, n, lib); err != nil {
		_ = Stop(dir)
		return nil, err
	}
	return n, nil
}

// boot writes n's configuration, starts its JVM and waits until it answers CQL.
func boot(ctx context.Context, n *Node, lib string) error {
	n.withDefaults()
	if err := writeConfig(n); err != nil {
		return err
	}
	if err := launch(n, lib); err != nil {
		return err
	}
	if err := waitReady(ctx, n); err != nil {
		return fmt.Errorf("%w\n--- tail of %s ---\n%s", err, LogFile(n.Dir), LogTail(n.Dir, 40))
	}
	return nil
}

func writeConfig(n *Node) error {
	for _, sub := range []string{"conf", "logs", "tmp", "data", "commitlog", "saved_caches", "hints", "cdc_raw"} {
		if err := os.MkdirAll(filepath.Join(n.Dir, sub), 0o755); err != nil {
			return err
		}
	}
	raw, err := assets.ReadFile("cassandra/cassandra.yaml.tmpl")
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := template.Must(template.New("yaml").Parse(string(raw))).Execute(&out, n); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(n.Dir, "conf", "cassandra.yaml"), out.Bytes(), 0o644); err != nil {
		return err
	}
	logback, err := assets.ReadFile("cassandra/logback.xml")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(n.Dir, "conf", "logback.xml"), logback, 0o644)
}

// launch starts the JVM in its own process group so it outlives the caller
// (a test binary or `make db-up`) and can be stopped as a group.
func launch(n *Node, lib string) error {
	java, err := exec.LookPath(envOr("JAVA", "java"))
	if err != nil {
		return fmt.Errorf("java (JDK 17) not found on PATH: %w", err)
	}
	out, err := os.OpenFile(filepath.Join(n.Dir, "logs", "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command(java, jvmArgs(n.Dir, lib, n.Heap, n.Durable, append(append(n.Secure.jvmProps(), n.cpuProps()...), n.jmxProps()...)...)...)
	pinCPUs(cmd, n.CPUs)
	cmd.Stdout, cmd.Stderr, cmd.Dir = out, out, n.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := cmd.Start
	if n.dieWithParent {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
		start = func() error { return startTied(cmd) }
	}
	if err := start(); err != nil {
		return fmt.Errorf("starting Cassandra: %w", err)
	}
	n.PID = cmd.Process.Pid
	pr := &proc{done: make(chan struct{})}
	n.proc = pr
	go func() { // reap it if it dies while we still run
		pr.state = fmt.Sprint(cmd.Wait())
		close(pr.done)
	}()
	return n.save()
}

// cpuProps are the JVM flags of Node.CPUs.
func (n *Node) cpuProps() []string {
	if n.CPUs <= 0 {
		return nil
	}
	return []string{fmt.Sprintf("-XX:ActiveProcessorCount=%d", n.CPUs)}
}

// pinCPUs runs cmd under taskset on CPUs 0..cpus-1 when cpus is set and taskset exists
// (it execs the JVM: the PID stays the JVM's).
func pinCPUs(cmd *exec.Cmd, cpus int) {
	taskset, err := exec.LookPath("taskset")
	if cpus <= 0 || err != nil {
		return
	}
	cmd.Args = append([]string{taskset, "-c", fmt.Sprintf("0-%d", cpus-1)}, cmd.Args...)
	cmd.Path = taskset
}

func waitReady(ctx context.Context, n *Node) error {
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	for {
		if !n.alive() {
			how := "exited"
			if n.proc != nil {
				how = n.proc.state
			}
			return fmt.Errorf("cassandra (pid %d) ended during startup: %s", n.PID, how)
		}
		if n.ping(ctx) == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cassandra did not answer CQL on %s within %s", n.Addr(), StartTimeout)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// LogFile is the node's main log.
func LogFile(dir string) string { return filepath.Join(dir, "logs", "system.log") }

// LogTail returns the last lines of the node's log (and its stdout), for test failures.
func LogTail(dir string, lines int) string {
	var b strings.Builder
	for _, f := range []string{LogFile(dir), filepath.Join(dir, "logs", "stdout.log")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(all) > lines {
			all = all[len(all)-lines:]
		}
		fmt.Fprintf(&b, "== %s\n%s\n", f, strings.Join(all, "\n"))
	}
	return b.String()
}

func freePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func portFree(host string, port int) bool {
	if port == 0 {
		return false
	}
	l, err := net.Listen("tcp", fmt.Sprintf("%s:%d", host, port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
