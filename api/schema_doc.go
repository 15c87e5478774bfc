package api

type object = map[string]any

func ref(name string) object { return object{"$ref": "#/components/schemas/" + name} }

// props is an object schema with the given (name, schema) properties.
func props(kv ...any) object {
	p := object{}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return object{"type": "object", "properties": p}
}

func arrayOf(items object) object { return object{"type": "array", "items": items} }

// listOf is an unpaged list: every item of a bounded range at once.
func listOf(item string) object {
	return object{"type": "object", "required": []string{"items"}, "properties": object{"items": arrayOf(ref(item))}}
}

func pageOf(item string) object {
	return object{"type": "object", "required": []string{"items"}, "properties": object{
		"items":  arrayOf(ref(item)),
		"cursor": object{"type": "string", "description": "the next page's cursor; absent on the last page"}}}
}
