package testcontainers

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MakeKeystores makes, with the JDK's keytool, a throw-away PKI in dir for a node
// listening on host: a CA (ca.pem), the node's key pair in a PKCS12 keystore
// (node.p12) with its certificate signed by that CA (subject alternative name
// ip:host) and the chain, a PKCS12 truststore holding the CA (trust.p12), and a second,
// unrelated CA (other-ca.pem), and a client certificate of the CA with its key in PEM
// (client.pem, client-key.pem). Keys are EC P-256; everything is valid for two days.
func MakeKeystores(ctx context.Context, dir, host string) (*Security, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	pass, err := randomPassword()
	if err != nil {
		return nil, err
	}
	kt := keytool{ctx: ctx, dir: dir, pass: pass}
	sec := &Security{Keystore: kt.path("node.p12"), Truststore: kt.path("trust.p12"), StorePassword: pass,
		CAFile: kt.path("ca.pem"), OtherCAFile: kt.path("other-ca.pem")}
	steps := [][]string{
		kt.newCA("ca"), kt.exportCA("ca"),
		kt.newCA("other-ca"), kt.exportCA("other-ca"),
		{"-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + host,
			"-validity", "2", "-keystore", "node.p12"},
		{"-certreq", "-alias", "node", "-keystore", "node.p12", "-file", "node.csr"},
		{"-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "node.csr", "-outfile", "node.pem", "-rfc",
			"-validity", "2", "-ext", "san=ip:" + host, "-ext", "eku=serverAuth", "-ext", "ku:c=digitalSignature"},
		{"-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "node.p12"},
		{"-importcert", "-alias", "node", "-file", "node.pem", "-keystore", "node.p12"},
		{"-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "trust.p12"},
	}
	for _, args := range steps {
		if err := kt.run(args...); err != nil {
			return nil, err
		}
	}
	return sec, kt.clientCert(sec)
}

// clientCert makes a client key pair in Go (keytool cannot export a private key), has
// the CA sign its request with keytool, and writes both in PEM (client.pem, client-key.pem).
func (k keytool) clientCert(sec *Security) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	csr, err := x509.CreateCertificateRequest(rand.Reader,
		&x509.CertificateRequest{Subject: pkix.Name{CommonName: "stardust test client"}}, key)
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	sec.ClientCert, sec.ClientKey = k.path("client.pem"), k.path("client-key.pem")
	if err := os.WriteFile(k.path("client.csr"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: csr}), 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(sec.ClientKey, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return err
	}
	return k.run("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "client.csr", "-outfile", "client.pem",
		"-rfc", "-validity", "2", "-ext", "eku=clientAuth", "-ext", "ku:c=digitalSignature")
}

type keytool struct {
	ctx  context.Context
	dir  string
	pass string
}

func (k keytool) path(name string) string { return filepath.Join(k.dir, name) }

// newCA makes a self-signed CA key pair in name.p12.
func (k keytool) newCA(name string) []string {
	return []string{"-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
		"-dname", "CN=stardust test " + name, "-ext", "bc:c", "-ext", "ku:c=keyCertSign,cRLSign",
		"-validity", "2", "-keystore", name + ".p12"}
}

// exportCA writes the CA certificate of name.p12 in PEM to name.pem.
func (k keytool) exportCA(name string) []string {
	return []string{"-exportcert", "-rfc", "-alias", "ca", "-keystore", name + ".p12", "-file", name + ".pem"}
}

// run runs keytool in k.dir on PKCS12 stores protected by k.pass (passed in the
// environment, never on the command line).
func (k keytool) run(args ...string) error {
	bin := "keytool"
	if home := os.Getenv("JAVA_HOME"); home != "" {
		bin = filepath.Join(home, "bin", "keytool")
	}
	full := append(append([]string{}, args...), "-storetype", "PKCS12",
		"-storepass:env", "KEYTOOL_PASS", "-keypass:env", "KEYTOOL_PASS")
	if args[0] == "-exportcert" || args[0] == "-certreq" || args[0] == "-gencert" || args[0] == "-importcert" {
		full = full[:len(full)-2] // these take no -keypass with PKCS12
	}
	cmd := exec.CommandContext(k.ctx, bin, full...)
	cmd.Dir, cmd.Env = k.dir, append(os.Environ(), "KEYTOOL_PASS="+k.pass)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("keytool %s (JDK 17 needed on PATH or JAVA_HOME): %w\n%s",
			strings.Join(args, " "), err, out)
	}
	return nil
}

func randomPassword() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
