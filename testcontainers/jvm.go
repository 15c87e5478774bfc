package testcontainers

import (
	"os"
	"path/filepath"
)

// jvmArgs are the flags Cassandra 5.0 needs on JDK 17 (from its conf/jvm17-server.options
// and bin/cassandra.in.sh), plus test-friendly settings. durable keeps the system
// keyspaces crash-safe (see Node.Durable); extra are more -D properties.
func jvmArgs(dir, lib, heap string, durable bool, extra ...string) []string {
	args := []string{"-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC", "-Xss512k",
		"-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath=" + dir}
	if jamm := jammJar(lib); jamm != "" {
		args = append(args, "-javaagent:"+jamm)
	}
	args = append(args, moduleArgs()...)
	tmp := filepath.Join(dir, "tmp")
	args = append(args,
		"-Dio.netty.tryReflectionSetAccessible=true", "-Djdk.attach.allowAttachSelf=true",
		"-Djava.net.preferIPv4Stack=true", "-Dchronicle.analytics.disable=true",
		configArg(dir),
		"-Dcassandra-foreground=yes", "-Dcassandra.logdir="+filepath.Join(dir, "logs"),
		"-Dlogback.configurationFile="+filepath.Join(dir, "conf", "logback.xml"),
		"-Djava.io.tmpdir="+tmp, "-Djna.tmpdir="+tmp,
		"-Dcassandra.skip_wait_for_gossip_to_settle=0")
	if !durable {
		// Skips schema-table flushes: DDL (every test keyspace) is much faster. Dev/test
		// only: the system tables are then not crash-safe, and a node killed with SIGKILL
		// comes back without the keyspaces created since it started.
		args = append(args, "-Dcassandra.unsafesystem=true")
	}
	args = append(args, extra...)
	args = append(args, "-cp", filepath.Join(dir, "conf")+":"+filepath.Join(lib, "*"),
		"org.apache.cassandra.service.CassandraDaemon")
	return args
}

// moduleArgs open the JDK 17 internals that Cassandra's code (server and tools) uses.
func moduleArgs() []string {
	var args []string
	for _, m := range []string{"java.base/jdk.internal.misc", "java.management.rmi/com.sun.jmx.remote.internal.rmi",
		"java.management/com.sun.jmx.remote.security", "java.rmi/sun.rmi.registry", "java.rmi/sun.rmi.server",
		"java.sql/java.sql", "java.base/java.lang.ref", "jdk.unsupported/sun.misc", "jdk.attach/sun.tools.attach",
		"jdk.compiler/com.sun.tools.javac.file"} {
		args = append(args, "--add-exports", m+"=ALL-UNNAMED")
	}
	for _, m := range []string{"java.base/java.lang.module", "java.base/jdk.internal.loader", "java.base/jdk.internal.ref",
		"java.base/jdk.internal.reflect", "java.base/jdk.internal.math", "java.base/jdk.internal.module",
		"java.base/jdk.internal.util.jar", "jdk.management/com.sun.management.internal", "java.base/sun.nio.ch",
		"java.base/java.io", "java.base/java.lang.reflect", "java.base/java.lang", "java.base/java.util",
		"java.base/java.nio", "jdk.compiler/com.sun.tools.javac"} {
		args = append(args, "--add-opens", m+"=ALL-UNNAMED")
	}
	return args
}

// configArg is the JVM flag naming the node's cassandra.yaml: it also tells the node's
// JVM apart from any other (see Node.alive).
func configArg(dir string) string {
	return "-Dcassandra.config=file://" + filepath.Join(dir, "conf", "cassandra.yaml")
}

func jammJar(lib string) string {
	matches, _ := filepath.Glob(filepath.Join(lib, "jamm-*.jar"))
	if len(matches) == 0 {
		return ""
	}
	return matches[0]
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
