package rest

type Object = map[string]any

func Ref(name string) Object { return Object{"$ref": "#/components/schemas/" + name} }

// Props is an object schema with the given (name, schema) properties.
func Props(kv ...any) Object {
	p := Object{}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return Object{"type": "object", "properties": p}
}

func ArrayOf(items Object) Object { return Object{"type": "array", "items": items} }

// ListOf is an unpaged list: every item of a bounded range at once.
func ListOf(item string) Object {
	return Object{"type": "object", "required": []string{"items"}, "properties": Object{"items": ArrayOf(Ref(item))}}
}

func PageOf(item string) Object {
	return Object{"type": "object", "required": []string{"items"}, "properties": Object{
		"items":  ArrayOf(Ref(item)),
		"cursor": Object{"type": "string", "description": "the next page's cursor; absent on the last page"}}}
}
