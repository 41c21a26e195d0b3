package review

import (
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// prefixCaches is a record's prefix-cache state per arm, for diff's
// conditions: "classic disabled, draft disabled".
func prefixCaches(m schema.Method) string {
	parts := make([]string, len(m.PrefixCache))
	for i, a := range m.PrefixCache {
		parts[i] = a.Arm + " " + string(a.State)
	}
	return strings.Join(parts, ", ")
}
