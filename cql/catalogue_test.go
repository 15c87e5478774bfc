package cql_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// seedLiteral is the one value the catalogue writes into a statement's text: the seed's
// transactions select filters on IN ('output', 'unlock').
const seedLiteral = `IN ('output', 'unlock')`

var (
	lwtClause = regexp.MustCompile(`\bIF\b`)
	verb      = map[cql.Kind]string{cql.Select: "SELECT", cql.Insert: "INSERT", cql.Update: "UPDATE", cql.Delete: "DELETE"}
	// target finds the table or view a statement reads or writes.
	target = regexp.MustCompile(`(?:\bFROM|\bINTO|^UPDATE)\s+([\w.]+)`)
)

func TestCatalogueEntries(t *testing.T) {
	all := cql.Catalogue()
	if len(all) < 50 {
		t.Fatalf("catalogue has %d statements, want the whole schema's (>= 50)", len(all))
	}
	names := map[string]bool{}
	for _, st := range all {
		if names[st.Name] {
			t.Errorf("duplicate name %q", st.Name)
		}
		names[st.Name] = true
		if st.Name == "" || st.Table == "" || st.Pattern == "" || st.CQL == "" {
			t.Errorf("%q: empty Name, Table, Pattern or CQL: %+v", st.Name, st)
			continue
		}
		cqlText := strings.TrimSpace(st.CQL)
		if v, ok := verb[st.Kind]; !ok || !strings.HasPrefix(cqlText, v+" ") {
			t.Errorf("%s: Kind %q does not match %q", st.Name, st.Kind, firstLine(cqlText))
		}
		if m := target.FindStringSubmatch(cqlText); m == nil || m[1] != st.Table {
			t.Errorf("%s: Table %q, but the statement targets %v", st.Name, st.Table, m)
		}
		isLWT := lwtClause.MatchString(cqlText)
		switch {
		case st.Kind == cql.Select && (!st.Idempotent || isLWT):
			t.Errorf("%s: a select must be idempotent and no LWT", st.Name)
		case isLWT && st.Idempotent:
			t.Errorf("%s: lightweight transaction marked idempotent (it would be retried blindly)", st.Name)
		case !isLWT && !st.Idempotent:
			t.Errorf("%s: plain write not idempotent (timestamped writes are)", st.Name)
		}
	}
}

// TestCatalogueBindsEveryValue: values are bound, never formatted into the text, except
// the seed's variant literal of transactions.output_and_unlock.
func TestCatalogueBindsEveryValue(t *testing.T) {
	found := false
	for _, st := range cql.Catalogue() {
		text := st.CQL
		if st == cql.TransactionOutputAndUnlock {
			found = strings.Contains(text, seedLiteral)
			text = strings.Replace(text, seedLiteral, "", 1)
		}
		if strings.ContainsAny(text, `'"$`) {
			t.Errorf("%s: quoted value in %q", st.Name, text)
		}
	}
	if !found {
		t.Errorf("transactions.output_and_unlock lost the seed's %s", seedLiteral)
	}
}

func TestCatalogueSorted(t *testing.T) {
	all := cql.Catalogue()
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		if a.Table > b.Table || a.Table == b.Table && a.Name >= b.Name {
			t.Errorf("not sorted by table then name: %s before %s", a.Name, b.Name)
		}
	}
}

// testPrepareAll makes the node PREPARE every statement of the catalogue.
//
// gocql prepares every select/insert/update/delete before executing it (Query.shouldPrepare)
// and, once prepared, checks the number of bound values against the prepared metadata
// before it sends EXECUTE. Running a statement with NO values therefore ends in one of
// two places, and never writes anything:
//   - the node rejects the PREPARE (unknown table or column, wrong types, bad syntax, an
//     invalid LWT or view restriction): a gocql.RequestError comes back, the test fails;
//   - the PREPARE succeeds and the client refuses to execute: "gocql: expected N values
//     send got 0", where N comes from the server and must equal the number of ? markers.
//
// A statement without markers (the full scans sync.all and milestones.all, selects) is executed, which is harmless.
//
// The session used here routes round-robin: the token-aware policy of cql.Config would
// compute the routing key from the (missing) partition key values and panic in gocql.
func testPrepareAll(t *testing.T, n node) {
	cl := n.cfg.Cluster()
	cl.PoolConfig.HostSelectionPolicy = gocql.RoundRobinHostPolicy()
	g, err := cl.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, st := range cql.Catalogue() {
		if err := prepare(g, st); err != nil {
			t.Errorf("%s: %v\n%s", st.Name, err, st.CQL)
		}
	}
	// The check itself: statements the schema does not have are rejected.
	for _, bad := range []string{
		"SELECT no_such_column FROM messages WHERE message_id = ?",
		"INSERT INTO no_such_table (a) VALUES (?)",
		"SELECT message_id FROM messages WHERE milestone_index = ?", // not a key: needs ALLOW FILTERING
		"UPDATE leases SET owner = ? WHERE name = ? IF no_such_column = ?",
	} {
		if err := prepare(g, &cql.Statement{Name: "bad", Kind: cql.Select, CQL: bad}); err == nil {
			t.Errorf("prepare accepted %q", bad)
		}
	}
}

// prepare returns nil when the node prepared st with as many bind values as st has markers.
func prepare(g *gocql.Session, st *cql.Statement) error {
	markers := strings.Count(st.CQL, "?")
	err := g.Query(st.CQL).WithContext(context.Background()).Iter().Close()
	if markers == 0 {
		if st.Kind != cql.Select {
			return fmt.Errorf("a write without bind markers")
		}
		return err
	}
	if err == nil {
		return fmt.Errorf("executed without its %d values", markers)
	}
	var want, got int
	if _, serr := fmt.Sscanf(err.Error(), "gocql: expected %d values send got %d", &want, &got); serr != nil {
		return fmt.Errorf("does not prepare: %w (class %s)", err, cql.Classify(err))
	}
	if want != markers {
		return fmt.Errorf("node expects %d values, the text has %d markers", want, markers)
	}
	return nil
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// TestCatalogueColumnsFollowText: a write's columns, by which the store binds its
// records, name for each value it binds the column of its text that value sets or selects
// by, in the text's order, or "" for a value that is no column (a TTL, a condition's).
func TestCatalogueColumnsFollowText(t *testing.T) {
	listed := 0
	for _, st := range cql.Catalogue() {
		if st.Kind == cql.Select {
			continue
		}
		listed++
		if len(st.Columns) != st.Binds {
			t.Errorf("%s: binds %v, its columns are %v", st.Name, st.Names, st.Columns)
			continue
		}
		at := 0
		for i, col := range st.Columns {
			if col == "" {
				continue
			}
			if col != st.Names[i] {
				t.Errorf("%s: value %d binds %s, its column is %s", st.Name, i, st.Names[i], col)
			}
			loc := regexp.MustCompile(`\b` + col + `\b`).FindStringIndex(st.CQL[at:])
			if loc == nil {
				t.Errorf("%s: column %s is not named after position %d of %q", st.Name, col, at, st.CQL)
				break
			}
			at += loc[1]
		}
	}
	if listed == 0 {
		t.Error("no write in the catalogue")
	}
}
