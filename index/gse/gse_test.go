package gse

import (
	"slices"
	"testing"

	"github.com/recallhq/recall/index"
)

// The gse dictionary is process-wide, so this one test walks the whole
// lifecycle in order: nothing loads it until a segmenting analyzer meets
// CJK text.
func TestSegmenterLazyLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the gse dictionary (seconds, >100 MB)")
	}
	if Loaded() {
		t.Fatal("dictionary loaded before any analyzer ran")
	}
	off := Apply(index.Spec(), ModeOff, "")
	on := Apply(index.Spec(), ModeOn, "")
	auto := Apply(index.Spec(), ModeAuto, DictSimplified)
	if off.Name() != "spec" || on.Name() != "spec+gse:zh_s" || auto.Name() != "spec+gse:zh_s" {
		t.Fatalf("names = %q, %q, %q", off.Name(), on.Name(), auto.Name())
	}
	if n := Apply(index.English(), ModeOn, DictAll).Name(); n != "english+gse:zh" {
		t.Fatalf("english with gse zh is named %q", n)
	}
	off.Tokens("我爱北京天安门")
	on.Tokens("plain English text, no CJK at all")
	auto.Tokens("café naïve")
	if Loaded() {
		t.Fatal("dictionary loaded without a segmenting analyzer seeing CJK text")
	}
	got := on.Tokens("I love 我爱北京天安门 a lot")
	if !Loaded() {
		t.Fatal("dictionary not loaded after a segmenting analyzer saw CJK text")
	}
	// Dictionary words, not bigrams: 北京 and 天安门 are words; 京天 is not.
	if !slices.Contains(got, "北京") || !slices.Contains(got, "天安门") || slices.Contains(got, "京天") {
		t.Fatalf("segmented tokens = %q", got)
	}
	// Non-CJK words are untouched by segmentation.
	if got[0] != "i" || got[1] != "love" || got[len(got)-1] != "lot" {
		t.Fatalf("segmented tokens lost the Latin words: %q", got)
	}
	if a := auto.Tokens("想去海边玩"); !slices.Contains(a, "海边") || slices.Contains(a, "边玩") {
		t.Fatalf("auto tokens = %q", a)
	}
	// Off stays bigrams even after the dictionary is loaded.
	if b := off.Tokens("想去海边玩"); !slices.Equal(b, []string{"想去", "去海", "海边", "边玩"}) {
		t.Fatalf("off tokens = %q", b)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": ModeOff, "off": ModeOff, "AUTO": ModeAuto, " on ": ModeOn} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseMode("yes"); err == nil {
		t.Error("ParseMode accepted yes")
	}
}
