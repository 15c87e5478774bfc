package api

import (
	"strings"
)

// familySchemaName is a family's schema name stem: block_activity → BlockActivity.
func familySchemaName(family string) string {
	var b strings.Builder
	for _, word := range strings.Split(family, "_") {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// familySchemas are the OpenAPI schemas of the family routes: each family's figures
// (nested by path) and its page of points, the daily points and one milestone's families.
func familySchemas() object {
	integer, str := object{"type": "integer"}, object{"type": "string"}
	coverage := object{"type": "string", "enum": []string{coverageComplete, coveragePartial},
		"description": "complete, or partial for ledger families folded from a ledger that was not whole " +
			"(no snapshot bootstrap) and for milestones missing families"}
	out := object{}
	byFamily := object{}
	for _, spec := range families {
		name := familySchemaName(spec.Name)
		out[name+"Figures"] = figuresSchema(spec.Figures)
		byFamily[spec.Name] = ref(name + "Figures")
		point := []any{"milestoneIndex", integer, "milestoneTimestamp", integer, "figures", ref(name + "Figures")}
		if spec.Name == protocolParametersFamily {
			point = append(point, "parameters", object{"type": "object",
				"description": "the TIP-25 protocol parameters object"})
		}
		out[name+"Points"] = props("family", str, "coverage", coverage, "points", arrayOf(props(point...)),
			"cursor", object{"type": "string", "description": "the next page's cursor; absent on the last page"})
	}
	out["ActiveAddressesDaily"] = props("family", str, "points", arrayOf(props(
		"date", object{"type": "string", "format": "date"}, "figures", ref("ActiveAddressesFigures"))))
	out["MilestoneFamilies"] = props("milestoneIndex", integer, "milestoneTimestamp", integer, "coverage", coverage,
		"missing", arrayOf(str), "families", object{"type": "object", "properties": byFamily},
		"parameters", object{"type": "object", "description": "the TIP-25 protocol parameters object, " +
			"at milestones with a protocol_parameters row"})
	return out
}

// figuresSchema nests figure paths as object schemas: amounts are decimal strings, other
// figures integers, and a "{N}" segment is a map keyed by the bucket number.
func figuresSchema(paths []string) object {
	root := object{"type": "object", "properties": object{}}
	for _, path := range paths {
		node := root
		segments := strings.Split(path, ".")
		for _, seg := range segments[:len(segments)-1] {
			node = childSchema(node, seg)
		}
		leaf := object{"type": "integer"}
		if isAmount(path) {
			leaf = object{"type": "string", "description": "decimal amount"}
		}
		node["properties"].(object)[segments[len(segments)-1]] = leaf
	}
	return root
}

// childSchema is the object schema under seg of node, made when new.
func childSchema(node object, seg string) object {
	if seg == "{N}" {
		if next, ok := node["additionalProperties"].(object); ok {
			return next
		}
		next := object{"type": "object", "properties": object{}}
		node["additionalProperties"] = next
		node["description"] = "by bucket N: the addresses whose balance b has 10^N <= b < 10^(N+1)"
		delete(node, "properties")
		return next
	}
	props := node["properties"].(object)
	if next, ok := props[seg].(object); ok {
		return next
	}
	next := object{"type": "object", "properties": object{}}
	props[seg] = next
	return next
}
