package frame

import (
	"encoding/xml"
	"fmt"
	"strings"

	"twissandra/ports/teaching"
)

// The lessons quote the 0.6 model's keyspaces and column families from the running engine's
// storage-conf.xml (the inspector's on widerow, Deps.StorageConf on the other backends), never
// from a copy of their own.

// SchemaKeyspaces are the keyspaces of the 0.6 model this server runs or would run.
func (h *Base) SchemaKeyspaces() []teaching.WideKeyspace {
	if h.Deps.Wide != nil {
		return h.Deps.Wide.Keyspaces()
	}
	return parseStorageConf(h.Deps.StorageConf)
}

// SchemaCF is one column family of the 0.6 model, found false when the schema has none.
func (h *Base) SchemaCF(keyspace, cf string) (teaching.WideCF, bool) {
	for _, ks := range h.SchemaKeyspaces() {
		if ks.Name != keyspace {
			continue
		}
		for _, c := range ks.ColumnFamilies {
			if c.Name == cf {
				return c, true
			}
		}
	}
	return teaching.WideCF{}, false
}

// SchemaKeyspace is one keyspace of the 0.6 model (empty when the schema has none).
func (h *Base) SchemaKeyspace(name string) teaching.WideKeyspace {
	for _, ks := range h.SchemaKeyspaces() {
		if ks.Name == name {
			return ks
		}
	}
	return teaching.WideKeyspace{Name: name}
}

// parseStorageConf reads the keyspaces and column families of a storage-conf.xml, each column
// family's definition written as the widerow inspector writes it.
func parseStorageConf(conf string) []teaching.WideKeyspace {
	var doc struct {
		Keyspaces []struct {
			Name string `xml:"Name,attr"`
			CFs  []struct {
				Name        string `xml:"Name,attr"`
				CompareWith string `xml:"CompareWith,attr"`
				Type        string `xml:"ColumnType,attr"`
				Sub         string `xml:"CompareSubcolumnsWith,attr"`
				RowsCached  string `xml:"RowsCached,attr"`
			} `xml:"ColumnFamily"`
		} `xml:"Keyspaces>Keyspace"`
	}
	if err := xml.NewDecoder(strings.NewReader(conf)).Decode(&doc); err != nil {
		return nil
	}
	var out []teaching.WideKeyspace
	for _, ks := range doc.Keyspaces {
		k := teaching.WideKeyspace{Name: ks.Name}
		for _, cf := range ks.CFs {
			cmp := cf.CompareWith
			if cmp == "" {
				cmp = "BytesType"
			}
			def := fmt.Sprintf(`<ColumnFamily Name=%q CompareWith=%q`, cf.Name, cmp)
			super := cf.Type == "Super"
			if super {
				sub := cf.Sub
				if sub == "" {
					sub = "BytesType"
				}
				def += fmt.Sprintf(` ColumnType="Super" CompareSubcolumnsWith=%q`, sub)
			}
			if cf.RowsCached != "" {
				def += fmt.Sprintf(` RowsCached=%q`, cf.RowsCached)
			}
			k.ColumnFamilies = append(k.ColumnFamilies, teaching.WideCF{Name: cf.Name, Super: super, Comparator: cmp, Definition: def + "/>"})
		}
		out = append(out, k)
	}
	return out
}
