package api

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The API's surfaces are told apart by file prefix until each is a package of its own:
// a surface's files use only their own surface's declarations and the shared ones (the
// unprefixed files: routing, parameters, errors, caching, limits, lookups, proofs), or
// another surface's where surfaceImports says so; a shared file uses no surface's, but
// for the wiring in surfaceWiring. The check type-checks the package's production files.

// surfaces maps a file prefix to its surface.
var surfaces = map[string]string{"core_": "core", "explorer_": "explorer", "indexer_": "indexer",
	"permanode_": "permanode", "poi_": "poi", "families_": "analytics", "dashboard": "analytics"}

// surfaceImports are the uses of another surface a surface may make.
var surfaceImports = map[string][]string{}

// surfaceWiring are the surface declarations the shared wiring uses: the route tables and
// OpenAPI schemas it concatenates, and the core's ledger tip, which the /health probe reads.
var surfaceWiring = map[string]bool{"coreRoutes": true, "indexerRoutes": true, "explorerRoutes": true,
	"poiRoutes": true, "familyRoutes": true, "permanodeRoutes": true, "dashboardRoutes": true,
	"coreSchemas": true, "indexerSchemas": true, "explorerSchemas": true, "poiSchemas": true,
	"familySchemas": true, "ledgerTip": true, "DefaultHealthMaxAge": true}

func surfaceOf(file string) string {
	base := filepath.Base(file)
	for prefix, s := range surfaces {
		if strings.HasPrefix(base, prefix) {
			return s
		}
	}
	return ""
}

func TestSurfacesUseOnlyWhatIsShared(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package and its imports from source")
	}
	fset, files := productionFiles(t)
	pkg, uses := typeCheck(t, fset, files)
	for id, obj := range uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from, decl := fset.Position(id.Pos()).Filename, fset.Position(obj.Pos()).Filename
		if problem := surfaceUse(surfaceOf(from), surfaceOf(decl), obj.Name()); problem != "" {
			t.Errorf("%s uses %s of %s: %s", fset.Position(id.Pos()), obj.Name(), filepath.Base(decl), problem)
		}
	}
}

// surfaceUse says what is wrong with a file of surface from using name, declared in a
// file of surface decl ("" for shared files), if anything.
func surfaceUse(from, decl, name string) string {
	switch {
	case decl == "" || from == decl:
		return ""
	case from == "" && !surfaceWiring[name]:
		return "a shared file uses a surface's declaration"
	case from != "" && !slices.Contains(surfaceImports[from], decl):
		return "a surface uses another surface's declaration"
	}
	return ""
}

func TestSurfaceUseRefuses(t *testing.T) {
	for _, c := range [][3]string{{"core", "poi", "proofParam"}, {"", "core", "coreOutputJSON"},
		{"explorer", "permanode", "milestonesListed"}} {
		if surfaceUse(c[0], c[1], c[2]) == "" {
			t.Errorf("a %q file using %s of %q passes", c[0], c[2], c[1])
		}
	}
}

func productionFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, f := range pkgs["api"].Files {
		files = append(files, f)
	}
	if len(files) < 50 {
		t.Fatalf("%d production files: the check would check little", len(files))
	}
	return fset, files
}

func typeCheck(t *testing.T, fset *token.FileSet, files []*ast.File) (*types.Package, map[*ast.Ident]types.Object) {
	t.Helper()
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check("api", fset, files, info)
	if err != nil {
		t.Fatalf("type-checking the api package: %v", err)
	}
	return pkg, info.Uses
}
