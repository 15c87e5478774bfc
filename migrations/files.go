package migrations

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed cql/*.cql
var files embed.FS

// Source returns the embedded migrations: a folder "cql" of NNNNNN_name.cql files, applied
// in name order, each statement ending in a semicolon.
func Source() fs.FS { return files }

// File is one embedded migration.
type File struct {
	Version uint
	Name    string // NNNNNN_name.cql, the name gocqlx_migrate records
	// MD5 is the checksum gocqlx_migrate records and checks on every run.
	MD5 string
	// SHA256 is the checksum a keyspace migrated by golang-migrate recorded in
	// schema_checksums: it identifies the file when such a keyspace is adopted.
	SHA256 string
	// Statements is how many statements gocqlx's migrate counts in the file (text up to
	// each semicolon, and a non-blank rest): the progress of a file applied whole.
	Statements int
}

// Files lists the embedded migrations in version order.
func Files() ([]File, error) { return listFiles(files) }

func listFiles(fsys fs.FS) ([]File, error) {
	entries, err := fs.ReadDir(fsys, "cql")
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	var out []File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".cql") {
			continue
		}
		v, err := strconv.ParseUint(strings.SplitN(e.Name(), "_", 2)[0], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("migration %s: bad version prefix", e.Name())
		}
		body, err := fs.ReadFile(fsys, "cql/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("migrations: %w", err)
		}
		md, sh := md5.Sum(body), sha256.Sum256(body)
		out = append(out, File{Version: uint(v), Name: e.Name(), MD5: hex.EncodeToString(md[:]),
			SHA256: hex.EncodeToString(sh[:]), Statements: statements(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// statements counts a file's statements the way gocqlx's migrate splits it: the text up
// to each semicolon is one, and so is a rest that is not blank.
func statements(body []byte) int {
	n := bytes.Count(body, []byte(";"))
	if rest := body[bytes.LastIndexByte(body, ';')+1:]; len(bytes.TrimSpace(rest)) > 0 {
		n++
	}
	return n
}

// FileStatements are the statements of the embedded file name (NNNNNN_name.cql), comment
// lines left out, each without its semicolon: what a test runs to make a keyspace as a
// file left it.
func FileStatements(name string) ([]string, error) {
	body, err := fs.ReadFile(files, "cql/"+name)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	var code []string
	for _, line := range strings.Split(string(body), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			code = append(code, line)
		}
	}
	var out []string
	for _, stmt := range strings.Split(strings.Join(code, "\n"), ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out, nil
}
