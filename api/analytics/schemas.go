package analytics

import (
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// FamilySchemaName is a family's schema name stem: block_activity → BlockActivity.
func FamilySchemaName(family string) string {
	var b strings.Builder
	for _, word := range strings.Split(family, "_") {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// Schemas are the OpenAPI schemas of the family routes: each family's figures
// (nested by path) and its page of points, the daily points and one milestone's families.
func Schemas() rest.Object {
	integer, str := rest.Object{"type": "integer"}, rest.Object{"type": "string"}
	coverage := rest.Object{"type": "string", "enum": []string{rest.CoverageComplete, rest.CoveragePartial},
		"description": "complete, or partial for ledger families folded from a ledger that was not whole " +
			"(no snapshot bootstrap) and for milestones missing families"}
	out := rest.Object{}
	byFamily := rest.Object{}
	for _, spec := range Families {
		name := FamilySchemaName(spec.Name)
		out[name+"Figures"] = figuresSchema(spec.Figures)
		byFamily[spec.Name] = rest.Ref(name + "Figures")
		point := []any{"milestoneIndex", integer, "milestoneTimestamp", integer, "figures", rest.Ref(name + "Figures")}
		if spec.Name == ProtocolParametersFamily {
			point = append(point, "parameters", rest.Object{"type": "object",
				"description": "the TIP-25 protocol parameters object"})
		}
		out[name+"Points"] = rest.Props("family", str, "coverage", coverage, "points", rest.ArrayOf(rest.Props(point...)),
			"cursor", rest.Object{"type": "string", "description": "the next page's cursor; absent on the last page"})
	}
	out["ActiveAddressesDaily"] = rest.Props("family", str, "points", rest.ArrayOf(rest.Props(
		"date", rest.Object{"type": "string", "format": "date"}, "figures", rest.Ref("ActiveAddressesFigures"))))
	out["TokenDistributionDaily"] = rest.Props("family", str, "coverage", coverage, "points", rest.ArrayOf(rest.Props(
		"date", rest.Object{"type": "string", "format": "date"}, "milestoneIndex", integer, "milestoneTimestamp", integer,
		"figures", rest.Ref("AddressBalanceFigures"))))
	out["MilestoneFamilies"] = rest.Props("milestoneIndex", integer, "milestoneTimestamp", integer, "coverage", coverage,
		"missing", rest.ArrayOf(str), "families", rest.Object{"type": "object", "properties": byFamily},
		"parameters", rest.Object{"type": "object", "description": "the TIP-25 protocol parameters object, " +
			"at milestones with a protocol_parameters row"})
	return out
}

// figuresSchema nests figure paths as object schemas: amounts are decimal strings, other
// figures integers, and a "{N}" segment is a map keyed by the bucket number.
func figuresSchema(paths []string) rest.Object {
	root := rest.Object{"type": "object", "properties": rest.Object{}}
	for _, path := range paths {
		node := root
		segments := strings.Split(path, ".")
		for _, seg := range segments[:len(segments)-1] {
			node = childSchema(node, seg)
		}
		leaf := rest.Object{"type": "integer"}
		if isAmount(path) {
			leaf = rest.Object{"type": "string", "description": "decimal amount"}
		}
		node["properties"].(rest.Object)[segments[len(segments)-1]] = leaf
	}
	return root
}

// childSchema is the object schema under seg of node, made when new.
func childSchema(node rest.Object, seg string) rest.Object {
	if seg == "{N}" {
		if next, ok := node["additionalProperties"].(rest.Object); ok {
			return next
		}
		next := rest.Object{"type": "object", "properties": rest.Object{}}
		node["additionalProperties"] = next
		node["description"] = "by bucket N: the addresses whose balance b has 10^N <= b < 10^(N+1)"
		delete(node, "properties")
		return next
	}
	props := node["properties"].(rest.Object)
	if next, ok := props[seg].(rest.Object); ok {
		return next
	}
	next := rest.Object{"type": "object", "properties": rest.Object{}}
	props[seg] = next
	return next
}
