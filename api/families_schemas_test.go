package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestFamilySchemasNameChronicleFigures: the OpenAPI figures schema of each family the
// data file holds has exactly inx-chronicle's figure paths (token_distribution, which the
// file leaves out, aside), an amount (Chronicle's ".0" field) as a string and a count as
// an integer.
func TestFamilySchemasNameChronicleFigures(t *testing.T) {
	schemas := New(store.New(nil, testChunk), Config{}).openAPI()["components"].(rest.Object)["schemas"].(rest.Object)
	for index, figures := range chronicleFigures(t) {
		want := map[string]map[string]bool{} // family: path: amount
		for key, f := range figures {
			family, path, _ := strings.Cut(key, ".")
			if want[family] == nil {
				want[family] = map[string]bool{}
			}
			want[family][path] = f.amount
		}
		for family, paths := range want {
			sch, ok := schemas[analytics.FamilySchemaName(family)+"Figures"].(rest.Object)
			if !ok {
				t.Errorf("no figures schema of %s", family)
				continue
			}
			got := schemaLeaves("", sch, map[string]string{})
			delete(got, "token_distribution.{N}.address_count")
			delete(got, "token_distribution.{N}.total_amount")
			if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(paths))) {
				t.Errorf("%s: schema paths %v, Chronicle's %v", family, slices.Sorted(maps.Keys(got)),
					slices.Sorted(maps.Keys(paths)))
			}
			for path, amount := range paths {
				if amount && got[path] != "string" {
					t.Errorf("milestone %s, %s.%s: an amount of type %q", index, family, path, got[path])
				}
				// storage_deposit_return_inner_amount is an amount Chronicle stores without ".0".
				if !amount && got[path] != "integer" && !strings.HasSuffix(path, "_amount") {
					t.Errorf("milestone %s, %s.%s: a count of type %q", index, family, path, got[path])
				}
			}
		}
	}
}

// schemaLeaves maps each leaf path of an object schema to its type ("{N}" for a map).
func schemaLeaves(prefix string, sch rest.Object, out map[string]string) map[string]string {
	if extra, ok := sch["additionalProperties"].(rest.Object); ok {
		schemaLeaves(prefix+"{N}.", extra, out)
	}
	props, ok := sch["properties"].(rest.Object)
	if !ok {
		if _, isMap := sch["additionalProperties"]; !isMap {
			out[strings.TrimSuffix(prefix, ".")] = fmt.Sprint(sch["type"])
		}
		return out
	}
	for name, child := range props {
		schemaLeaves(prefix+name+".", child.(rest.Object), out)
	}
	return out
}
