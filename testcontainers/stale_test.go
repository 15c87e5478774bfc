package testcontainers

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

// Which keyspaces the age rule selects: test keyspaces (by name) older than the age, by the
// time in their name, else by their schema row's write time; never another keyspace, a
// young one, or one from the future.
func TestStaleKeyspaceSelection(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	age := DefaultStaleAge
	old, young := now.Add(-age-time.Minute), now.Add(-age+time.Minute)
	named := func(at time.Time) string { return fmt.Sprintf("t_%d_testx_123_4", at.Unix()) }
	all := []schemaKeyspace{
		{name: named(old), written: now},                // the name's time counts
		{name: named(young), written: old},              // the name's time counts
		{name: named(now.Add(time.Hour)), written: old}, // from the future
		{name: "t_testlegacy_sub_1_2_98765_3", written: old},
		{name: "t_testlegacy_98765_4", written: young},
		{name: "t_testlegacy_98765_5"}, // no write time
		{name: "stardust", written: old},
		{name: "t_notatest", written: old},
		{name: "system_schema", written: old},
		{name: "stardust_load", written: old},
	}
	got := staleKeyspaces(all, now, age)
	want := []string{named(old), "t_testlegacy_sub_1_2_98765_3"}
	if !slices.Equal(got, want) {
		t.Fatalf("stale %v, want %v", got, want)
	}
	if n := uniqueKeyspace("TestAVeryLongTestNameThatGoesOnAndOn/with_a_subtest"); len(n) > 48 ||
		!testKeyspaceName.MatchString(n) || migrations.ValidKeyspace(n) != nil {
		t.Errorf("uniqueKeyspace gave %q (%d characters)", n, len(n))
	}
}

// DropStaleKeyspaces on the test node: a keyspace whose name says it was created past the
// age ago is dropped; one named now, and one of the earlier naming just created, stay.
// The test drops the keyspaces it made.
func TestDropStaleKeyspaces(t *testing.T) {
	SkipShort(t)
	cfg := Config(t, "system")
	cfg.Keyspace = ""
	admin, err := cql.OpenSchema(cfg) // DDL through one coordinator, a minute a statement
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close) // after the drops below: cleanups run last in, first out
	ctx := context.Background()
	seq := func() int64 { return keyspaceSeq.Add(1) }
	pid := os.Getpid() % 100000
	stale := fmt.Sprintf("t_%d_teststaledrop_%d_%d", time.Now().Add(-DefaultStaleAge-time.Hour).Unix(), pid, seq())
	fresh := uniqueKeyspace("TestStaleKeep")
	legacy := fmt.Sprintf("t_teststalelegacy_%d_%d", pid, seq())
	for _, name := range []string{stale, fresh, legacy} {
		if err := migrations.CreateKeyspace(ctx, admin.Gocql(), name, migrations.Replication{Factor: 1}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := migrations.DropKeyspace(ctx, admin.Gocql(), name); err != nil {
				t.Errorf("dropping %s: %v", name, err)
			}
		})
	}
	dropped, err := DropStaleKeyspaces(ctx, cfg, DefaultStaleAge)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dropped %v", dropped)
	all, err := listKeyspaces(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	left := map[string]schemaKeyspace{}
	for _, k := range all {
		left[k.name] = k
	}
	if _, ok := left[stale]; ok || !slices.Contains(dropped, stale) {
		t.Errorf("%s was not dropped", stale)
	}
	if _, ok := left[fresh]; !ok {
		t.Errorf("%s, made now, was dropped", fresh)
	}
	k, ok := left[legacy]
	if !ok {
		t.Fatalf("%s, made now, was dropped", legacy)
	}
	if since := time.Since(k.written); since < -time.Minute || since > 5*time.Minute {
		t.Errorf("%s written at %s by its schema row, want about now", legacy, k.written)
	}
}
