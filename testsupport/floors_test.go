package testsupport

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The import rules of docs/architecture.md, checked over `go list` of the production
// packages (tests may reach further): each package imports only packages on a floor
// below its own, or within its floor only its own tree or what a rule below names.

const module = "github.com/stardust-indexer/stardust-indexer/"

// floors gives each package tree its floor; the longest matching tree counts.
var floors = map[string]int{
	"internal": 0, "ops": 0, "authtls": 0, "compat": 0, "faults": 0,
	"chain": 1,
	"tip25": 2, "loadtest": 2, "internal/realdata": 2,
	"source": 3,
	"cql":    4, "migrations": 4,
	"store": 5, "testcontainers": 5,
	"store/storetest": 6, "hints": 6,
	"ingest": 7, "api": 7, "ledgerquery": 7, "analytics": 7, "verify": 7, "archive": 7, "snapshotexport": 7,
	"testsupport": 8,
	"cmd":         9,
}

// sameFloor lists the imports within a floor the rules allow, besides a package's own tree.
var sameFloor = map[string][]string{
	"api":                  {"analytics", "ledgerquery"}, // the analytics routes, TIP-26 queries
	"ingest/bootstrap":     {"ingest"},                   // the bootstrap hands diffs to the pipeline
	"source/node/nodetest": {"source/sim"},               // the fake node serves the simulated chain
	"internal/mutation":    {"internal/readfile"},        // reads gremlins' output and a profile
}

// apiSurfaces are the API's surface packages: each builds its routes on the shared
// machinery of api/rest, and the server (api) concatenates them.
var apiSurfaces = []string{"api/core", "api/indexer", "api/explorer", "api/poi", "api/analytics", "api/tables",
	"api/wallet", "api/events", "api/tip28"}

// surfaceImports are the other surfaces a surface may import (docs/architecture.md).
var surfaceImports = map[string][]string{}

// fixtures are the packages only tests (and other fixtures) import.
var fixtures = []string{"testsupport", "store/storetest"}

// cqlUsers are the only packages that import cql: the store, and what opens a session.
var cqlUsers = []string{"store", "testcontainers", "cmd"}

// tools must not reach a source's implementation: they read through the store.
var tools = []string{"api", "ledgerquery", "analytics", "verify", "archive", "snapshotexport"}

func TestImportRules(t *testing.T) {
	for pkg, imports := range productionImports(t) {
		for _, imp := range imports {
			if err := checkImport(pkg, imp); err != "" {
				t.Errorf("%s imports %s: %s", pkg, imp, err)
			}
		}
	}
}

func checkImport(pkg, imp string) string {
	switch {
	case within(imp, fixtures...) && !within(pkg, fixtures...):
		return "a test fixture, which production code does not import"
	case within(imp, "cql") && !within(pkg, cqlUsers...):
		return "only store (and testcontainers, cmd/*) import cql"
	case within(pkg, tools...) && within(imp, "source/sim", "source/node", "ingest"):
		return "a tool reads through the store, never a source's implementation or the pipeline"
	case within(imp, "source/snapshot") && within(pkg, tools...) && pkg != "snapshotexport":
		return "only snapshotexport (of the tools) writes snapshot files"
	}
	if within(pkg, "api") && within(imp, "api") {
		return apiImport(pkg, imp)
	}
	fp, fi := floorOf(pkg), floorOf(imp)
	switch {
	case fi < fp, within(imp, pkg), within(pkg, imp):
		return ""
	case fi == fp && allowed(pkg, imp):
		return ""
	case fi == fp:
		return "a package of its own floor, which no import rule allows"
	}
	return "a package of a floor above its own"
}

// apiImport says what is wrong with one package of the API importing another, if anything:
// the server imports every surface and api/rest; a surface imports api/rest and the
// surfaces surfaceImports names; api/rest imports no other API package.
func apiImport(pkg, imp string) string {
	switch {
	case pkg == "api":
		return ""
	case imp == "api":
		return "the server, which only cmd/api wires"
	case pkg == "api/rest":
		return "a surface, which the shared machinery (api/rest) does not import"
	case imp == "api/rest", slices.Contains(surfaceImports[pkg], imp):
		return ""
	case slices.Contains(apiSurfaces, imp):
		return "another surface, which surfaceImports does not allow"
	}
	return "an API package that is neither api/rest nor a surface"
}

func allowed(pkg, imp string) bool {
	for from, to := range sameFloor {
		if within(pkg, from) && within(imp, to...) {
			return true
		}
	}
	return false
}

// floorOf is the floor of the longest tree in floors that holds pkg.
func floorOf(pkg string) int {
	best, floor := -1, -1
	for tree, f := range floors {
		if within(pkg, tree) && len(tree) > best {
			best, floor = len(tree), f
		}
	}
	return floor
}

// within tells whether pkg is one of trees or a package below one.
func within(pkg string, trees ...string) bool {
	return slices.ContainsFunc(trees, func(tree string) bool { return pkg == tree || strings.HasPrefix(pkg, tree+"/") })
}

// productionImports maps each package of the module (relative path) to the module's
// packages its non-test files import.
func productionImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		pkgs[pkg] = nil
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				pkgs[pkg] = append(pkgs[pkg], rel)
			}
		}
		if floorOf(pkg) < 0 {
			t.Errorf("%s has no floor: add its tree to floors (docs/architecture.md)", pkg)
		}
	}
	if len(pkgs) < 40 {
		t.Fatalf("go list named %d packages: the check would check little", len(pkgs))
	}
	return pkgs
}

// The check refuses what the rules forbid (a test that the test can fail).
func TestImportRulesRefuse(t *testing.T) {
	for _, c := range [][2]string{{"chain", "store"}, {"store", "testsupport/ingesttest"}, {"hints", "cql"},
		{"api", "ingest"}, {"verify", "source/node"}, {"analytics", "source/snapshot"}, {"ingest", "api"},
		{"source/sim", "store"}, {"tip25", "source"}, {"cmd/api", "cmd/indexer"}, {"store", "hints"},
		{"api/explorer", "api/core"}, {"api/rest", "api/core"}, {"api/core", "api"}, {"api/poi", "api/tables"}} {
		if checkImport(c[0], c[1]) == "" {
			t.Errorf("%s importing %s passes the check", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"api", "analytics"}, {"ingest/bootstrap", "ingest"}, {"cmd/indexer", "ingest"},
		{"testsupport/realnettest", "ingest"}, {"store/storetest", "cql"}, {"snapshotexport", "source/snapshot"},
		{"api", "api/core"}, {"api", "api/rest"}, {"api/indexer", "api/rest"}, {"api/tables", "ledgerquery"}} {
		if err := checkImport(c[0], c[1]); err != "" {
			t.Errorf("%s importing %s refused: %s", c[0], c[1], err)
		}
	}
}
