package fingerprint

import (
	"reflect"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// TestPinMatchesManifest: Pin mirrors gamefile.AgentPin (kept apart so that this package imports
// nothing of the runner's chain); a field added to one and not the other would be dropped silently
// by the conversion, so the two must have the same fields, types and JSON tags in the same order.
func TestPinMatchesManifest(t *testing.T) {
	a, b := reflect.TypeOf(Pin{}), reflect.TypeOf(gamefile.AgentPin{})
	if a.NumField() != b.NumField() {
		t.Fatalf("Pin has %d fields, gamefile.AgentPin %d", a.NumField(), b.NumField())
	}
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Tag.Get("json") != fb.Tag.Get("json") {
			t.Errorf("field %d: Pin has %s %s `json:%q`, gamefile.AgentPin %s %s `json:%q`",
				i, fa.Name, fa.Type, fa.Tag.Get("json"), fb.Name, fb.Type, fb.Tag.Get("json"))
		}
	}
}
