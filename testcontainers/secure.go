package testcontainers

import (
	"context"
	"crypto/tls"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gocql/gocql"
)

// Superuser and SuperuserPassword are the role Cassandra creates on its first start
// with PasswordAuthenticator: a secure test node keeps them (it lives for one test).
const (
	Superuser         = "cassandra"
	SuperuserPassword = "cassandra"
)

// Security is what a node needs to require password authentication and TLS: a PKCS12
// keystore with its key and certificate chain, a truststore with the CA, and the CA
// certificate in PEM for clients. StartSecureNode makes them with keytool.
type Security struct {
	Keystore      string `json:"keystore"`
	Truststore    string `json:"truststore"`
	StorePassword string `json:"store_password"`
	// CAFile is the PEM certificate of the CA that signed the node's certificate:
	// what a client trusts (CQL_TLS_CA).
	CAFile string `json:"ca_file"`
	// OtherCAFile is the PEM certificate of a second CA that signed nothing of this
	// node: a client trusting only it must refuse the node.
	OtherCAFile string `json:"other_ca_file"`
	// ClientCert and ClientKey are a PEM client certificate signed by the CA and its key
	// (CQL_TLS_CERT, CQL_TLS_KEY): what a node with RequireClientAuth wants to see.
	ClientCert string `json:"client_cert"`
	ClientKey  string `json:"client_key"`
	// RequireClientAuth makes the node refuse clients without a certificate of the CA.
	RequireClientAuth bool `json:"require_client_auth,omitempty"`
}

// StartSecureNode starts a single node in dir (see StartNode) with `authenticator:
// PasswordAuthenticator`, `authorizer: CassandraAuthorizer` and client encryption
// enabled and required (`optional: false`) on its CQL port, with a keystore and a
// truststore made by the JDK's keytool in dir/tls. With clientAuth, clients must also
// show a certificate of the CA (Security.ClientCert). It returns once the default
// superuser (Superuser) can log in over TLS.
func StartSecureNode(ctx context.Context, dir, heap string, clientAuth bool) (*Node, error) {
	sec, err := MakeKeystores(ctx, filepath.Join(dir, "tls"), "127.0.0.1")
	if err != nil {
		return nil, err
	}
	sec.RequireClientAuth = clientAuth
	return StartNode(ctx, Node{Dir: dir, Host: "127.0.0.1", Heap: heap, Secure: sec})
}

// jvmProps are the node's extra JVM properties: a secure node creates its default
// superuser at once instead of after the usual 10 s.
func (s *Security) jvmProps() []string {
	if s == nil {
		return nil
	}
	return []string{"-Dcassandra.superuser_setup_delay_ms=0"}
}

// apply makes c log in as the superuser over TLS, trusting CAFile and showing the
// client certificate (nothing for a node without Security).
func (s *Security) apply(c *gocql.ClusterConfig) {
	if s == nil {
		return
	}
	c.Authenticator = gocql.PasswordAuthenticator{Username: Superuser, Password: SuperuserPassword}
	c.SslOpts = &gocql.SslOptions{CaPath: s.CAFile, CertPath: s.ClientCert, KeyPath: s.ClientKey,
		EnableHostVerification: true,
		Config:                 &tls.Config{MinVersion: tls.VersionTLS12}}
}

// SuperSession opens a session on the secure node n as its superuser, e.g. to create
// roles and grant permissions.
func (n *Node) SuperSession() (*gocql.Session, error) {
	if n.Secure == nil {
		return nil, fmt.Errorf("node %s is not secure", n.Addr())
	}
	c := gocql.NewCluster(n.Addr())
	c.Timeout, c.ConnectTimeout = 20*time.Second, 5*time.Second
	c.DisableInitialHostLookup = true
	c.Logger = nopLogger{}
	n.Secure.apply(c)
	return c.CreateSession()
}
