package cql

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/gocql/gocql"
)

// Errors of a connection the cluster refuses for its configuration: wrong credentials,
// a certificate not trusted, TLS missing. Classify puts them in ClassAuth, which is
// never retried: another attempt cannot succeed until the configuration changes.
var (
	ErrCredentials = errors.New("the cluster refused the login (check CQL_USERNAME and CQL_PASSWORD)")
	ErrPermission  = errors.New("the role lacks a permission (see docs/security.md for the GRANTs)")
	ErrTLS         = errors.New("TLS with the cluster failed (check CQL_TLS_CA, CQL_TLS_CERT, CQL_TLS_KEY)")
	ErrTLSRequired = errors.New("the cluster's CQL port requires TLS (set CQL_TLS_CA)")
)

// explainConnect turns a failed connection into one of the errors above when its text
// says so (gocql flattens the cause into a string), and otherwise returns err as is.
// A plaintext client on a TLS-only port only sees the connection close; a TLS probe
// then tells that case apart from a node that is down or restarting.
func explainConnect(cfg Config, err error) error {
	msg := err.Error()
	switch {
	case credentialsText(msg):
		return fmt.Errorf("%w: %w", ErrCredentials, err)
	case tlsText(msg):
		return fmt.Errorf("%w: %w", ErrTLS, err)
	case !cfg.usesTLS() && closedText(msg) && len(cfg.Hosts) > 0 && speaksTLS(cfg.Hosts[0]):
		return fmt.Errorf("%w: %s answers TLS only: %w", ErrTLSRequired, cfg.Hosts[0], err)
	}
	return err
}

// explainQuery names the missing permission's cause when the node refused a statement
// for the role's lack of one.
func explainQuery(err error) error {
	var re gocql.RequestError
	if errors.As(err, &re) && re.Code() == gocql.ErrCodeUnauthorized {
		return fmt.Errorf("%w: %w", ErrPermission, err)
	}
	return err
}

func (c Config) usesTLS() bool { return c.TLSCAFile != "" || c.TLSInsecure || c.TLSCertFile != "" }

// credentialsText: Cassandra's answers to a bad login (code 0x0100) and gocql's when the
// node asks for a login none was configured for.
func credentialsText(msg string) bool {
	return strings.Contains(msg, "password are incorrect") || strings.Contains(msg, "authentication required") ||
		strings.Contains(msg, "is not permitted to log in") || strings.Contains(msg, "AuthenticationException")
}

// tlsText: crypto/tls and crypto/x509 prefix their errors so; a connection closed
// under TLS is not a TLS failure.
func tlsText(msg string) bool {
	return strings.Contains(msg, "x509: ") ||
		strings.Contains(msg, "tls: ") && !strings.Contains(msg, "use of closed connection")
}

func closedText(msg string) bool {
	return strings.Contains(msg, "EOF") || strings.Contains(msg, "connection reset") ||
		strings.Contains(msg, "broken pipe")
}

// speaksTLS reports whether addr completes a TLS handshake. It only probes the
// protocol: nothing is sent after the handshake, so the certificate is not checked.
func speaksTLS(addr string) bool {
	d := &net.Dialer{Timeout: 2 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // probe only
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// checkTLSFiles reads the TLS files before the driver does, so a missing or malformed
// one is named with its variable and refused at once (gocql reports it as a session it
// could not create, which reads as a cluster that is down).
func (c Config) checkTLSFiles() error {
	if c.TLSCAFile != "" {
		pem, err := os.ReadFile(c.TLSCAFile)
		if err != nil {
			return fmt.Errorf("%w: CQL_TLS_CA: %w", ErrTLS, err)
		}
		if !x509.NewCertPool().AppendCertsFromPEM(pem) {
			return fmt.Errorf("%w: CQL_TLS_CA %s: no PEM certificate in it", ErrTLS, c.TLSCAFile)
		}
	}
	if c.TLSCertFile != "" || c.TLSKeyFile != "" {
		if _, err := tls.LoadX509KeyPair(c.TLSCertFile, c.TLSKeyFile); err != nil {
			return fmt.Errorf("%w: CQL_TLS_CERT %q, CQL_TLS_KEY %q: %w", ErrTLS, c.TLSCertFile, c.TLSKeyFile, err)
		}
	}
	return nil
}
