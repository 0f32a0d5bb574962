package bench

// A real static embedding model for the fusion measurements, served the
// way a user's model would be: an OpenAI-compatible /v1/embeddings
// endpoint (httptest) that recall's openai provider talks to.
//
// model2vec models (github.com/MinishLab/model2vec) are a tokenizer
// (tokenizer.json, here a Unigram one) and one vector per token
// (model.safetensors); a text's embedding is the mean of its tokens'
// vectors, unknown tokens left out, L2-normalised. This file reads the
// vocabulary-quantized layout (a shared table "embeddings", a row per
// token in "mapping" and a scale per token in "weights") and the plain
// one, and reproduces model2vec-rs's encode (max_length 512): its Python
// fixture for the quantized test model is checked below.

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// m2vDir is the model the measurements use; $RECALL_M2V_MODEL overrides.
const m2vDir = "/work/shared/models/m2v-bge-base-vq128"

type model2vec struct {
	vocab     map[string]int
	scores    []float64
	maxTok    int // longest token, in bytes
	unk       int // -1 without one
	unkScore  float64
	medianLen int
	dim       int
	vecs      [][]float32 // per token, scale applied
	normalize bool
	punct     map[rune]bool // characters the normalizer pads with spaces
}

func loadModel2Vec(dir string) (*model2vec, error) {
	var tok struct {
		Normalizer struct {
			Normalizers []struct {
				Type    string
				Pattern struct{ String string }
				Content string
			}
		}
		Model struct {
			Type  string
			UnkID *int `json:"unk_id"`
			Vocab [][2]json.RawMessage
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "tokenizer.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &tok); err != nil {
		return nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	if tok.Model.Type != "Unigram" {
		return nil, fmt.Errorf("tokenizer.json: model %q, only Unigram is read here", tok.Model.Type)
	}
	m := &model2vec{vocab: map[string]int{}, unk: -1, punct: map[rune]bool{}, normalize: true}
	for _, n := range tok.Normalizer.Normalizers {
		if n.Type == "Replace" && len([]rune(n.Pattern.String)) == 1 && n.Content == " "+n.Pattern.String+" " {
			m.punct[[]rune(n.Pattern.String)[0]] = true
		}
	}
	minScore := math.Inf(1)
	var lens []int
	for i, p := range tok.Model.Vocab {
		var s string
		var score float64
		if err := json.Unmarshal(p[0], &s); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(p[1], &score); err != nil {
			return nil, err
		}
		m.vocab[s] = i
		m.scores = append(m.scores, score)
		m.maxTok = max(m.maxTok, len(s))
		minScore = min(minScore, score)
		lens = append(lens, len(s))
	}
	slices.Sort(lens)
	m.medianLen = lens[len(lens)/2]
	if tok.Model.UnkID != nil {
		m.unk = *tok.Model.UnkID
	}
	m.unkScore = minScore - 10 // tokenizers' K_UNK_PENALTY

	var cfg struct {
		Normalize *bool `json:"normalize"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "config.json")); err == nil {
		_ = json.Unmarshal(b, &cfg)
		if cfg.Normalize != nil {
			m.normalize = *cfg.Normalize
		}
	}
	return m, m.loadTensors(filepath.Join(dir, "model.safetensors"))
}

// loadTensors reads a safetensors file: an 8-byte little-endian header
// length, a JSON header, then the tensors' bytes.
func (m *model2vec) loadTensors(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(b) < 8 {
		return fmt.Errorf("%s: too short", path)
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) {
		return fmt.Errorf("%s: header length %d out of range", path, n)
	}
	var hdr map[string]struct {
		Dtype   string
		Shape   []int
		Offsets [2]int `json:"data_offsets"`
	}
	if err := json.Unmarshal(b[8:8+n], &hdr); err != nil {
		return fmt.Errorf("%s: header: %w", path, err)
	}
	data := b[8+n:]
	floats := func(name string) ([]float64, []int, error) {
		t, ok := hdr[name]
		if !ok {
			return nil, nil, nil
		}
		raw := data[t.Offsets[0]:t.Offsets[1]]
		var out []float64
		switch t.Dtype {
		case "F64":
			for i := 0; i+8 <= len(raw); i += 8 {
				out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
			}
		case "F32":
			for i := 0; i+4 <= len(raw); i += 4 {
				out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[i:]))))
			}
		case "I32":
			for i := 0; i+4 <= len(raw); i += 4 {
				out = append(out, float64(int32(binary.LittleEndian.Uint32(raw[i:]))))
			}
		default:
			return nil, nil, fmt.Errorf("%s: tensor %s: dtype %s not read here", path, name, t.Dtype)
		}
		return out, t.Shape, nil
	}
	emb, shape, err := floats("embeddings")
	if err != nil || len(shape) != 2 {
		return fmt.Errorf("%s: embeddings: %v %v", path, shape, err)
	}
	weights, _, err := floats("weights")
	if err != nil {
		return err
	}
	mapping, _, err := floats("mapping")
	if err != nil {
		return err
	}
	m.dim = shape[1]
	m.vecs = make([][]float32, len(m.scores))
	for tok := range m.vecs {
		row := tok
		if mapping != nil {
			row = int(mapping[tok])
		}
		scale := 1.0
		if weights != nil {
			scale = weights[tok]
		}
		v := make([]float32, m.dim)
		for j := range v {
			v[j] = float32(emb[row*m.dim+j]) * float32(scale)
		}
		m.vecs[tok] = v
	}
	return nil
}

var spaces = regexp.MustCompile(`\s+`)

// normalizeText is the tokenizer's normalizer: BERT's (clean text, pad
// CJK ideographs, strip accents, lower-case), the punctuation padding,
// runs of white space to one space, trimmed; then Metaspace's "▁".
func (m *model2vec) normalizeText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0 || r == 0xfffd || (unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r') || unicode.Is(unicode.Cf, r):
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteString(" " + string(r) + " ")
		default:
			b.WriteRune(r)
		}
	}
	var s2 strings.Builder
	for _, r := range norm.NFD.String(b.String()) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		if m.punct[r] {
			s2.WriteString(" " + string(r) + " ")
		} else {
			s2.WriteRune(r)
		}
	}
	out := strings.TrimSpace(spaces.ReplaceAllString(s2.String(), " "))
	return "▁" + strings.ReplaceAll(out, " ", "▁")
}

func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// tokenize is Unigram's Viterbi: the segmentation with the greatest sum
// of token scores, a character no token starts with being unknown.
func (m *model2vec) tokenize(s string) []int {
	n := len(s)
	best := make([]float64, n+1)
	from := make([]int, n+1)
	tokAt := make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i] = math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		if math.IsInf(best[i], -1) {
			continue
		}
		_, size := utf8DecodeAt(s, i)
		single := false
		for l := 1; l <= m.maxTok && i+l <= n; l++ {
			id, ok := m.vocab[s[i:i+l]]
			if !ok {
				continue
			}
			if l == size {
				single = true
			}
			if sc := best[i] + m.scores[id]; sc > best[i+l] {
				best[i+l], from[i+l], tokAt[i+l] = sc, i, id
			}
		}
		if !single {
			if sc := best[i] + m.unkScore; sc > best[i+size] {
				best[i+size], from[i+size], tokAt[i+size] = sc, i, m.unk
			}
		}
	}
	var ids []int
	for j := n; j > 0; j = from[j] {
		ids = append(ids, tokAt[j])
	}
	slices.Reverse(ids)
	return ids
}

func utf8DecodeAt(s string, i int) (rune, int) {
	for size := 1; size <= 4 && i+size <= len(s); size++ {
		if r := []rune(s[i : i+size]); len(r) == 1 && r[0] != 0xfffd {
			return r[0], size
		}
	}
	return 0xfffd, 1
}

// embed is model2vec's encode with max_length 512.
func (m *model2vec) embed(text string) []float32 {
	const maxTokens = 512
	if r := []rune(text); len(r) > maxTokens*m.medianLen {
		text = string(r[:maxTokens*m.medianLen])
	}
	var ids []int
	for _, id := range m.tokenize(m.normalizeText(text)) {
		if id != m.unk {
			ids = append(ids, id)
		}
	}
	if len(ids) > maxTokens {
		ids = ids[:maxTokens]
	}
	sum := make([]float32, m.dim)
	for _, id := range ids {
		for j, v := range m.vecs[id] {
			sum[j] += v
		}
	}
	d := float32(max(len(ids), 1))
	var norm2 float32
	for j := range sum {
		sum[j] /= d
		norm2 += sum[j] * sum[j]
	}
	if m.normalize {
		nv := float32(math.Max(math.Sqrt(float64(norm2)), 1e-12))
		for j := range sum {
			sum[j] /= nv
		}
	}
	return sum
}

// serveOpenAI answers POST /v1/embeddings as OpenAI does, with the model's
// vectors.
func (m *model2vec) serveOpenAI(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string `json:"object"`
			Data   []item `json:"data"`
			Model  string `json:"model"`
			Usage  struct {
				PromptTokens int `json:"prompt_tokens"`
				TotalTokens  int `json:"total_tokens"`
			} `json:"usage"`
		}{Object: "list", Model: req.Model}
		for i, in := range req.Input {
			resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: m.embed(in)})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func modelDir(t testing.TB) string {
	dir := os.Getenv("RECALL_M2V_MODEL")
	if dir == "" {
		dir = m2vDir
	}
	if _, err := os.Stat(filepath.Join(dir, "model.safetensors")); err != nil {
		t.Skipf("no model2vec model at %s (set RECALL_M2V_MODEL): %v", dir, err)
	}
	return dir
}

// The Python model2vec's embedding of "hello" × 1000 with the quantized
// test model (model2vec-rs tests/fixtures/embeddings_vocab_quantized.json,
// its first 8 of 64 values), and the tokenizer on a sentence.
func TestModel2VecMatchesPython(t *testing.T) {
	m, err := loadModel2Vec(modelDir(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-0.363402567303566, -0.17280622671667234, 0.39940570500107386, -0.16813011070789555,
		-0.15618451933846883, -0.14994650725286524, 0.006071081245258223, -0.16688048919255372}
	got := m.embed(strings.Repeat("hello ", 999) + "hello")
	for i, w := range want {
		if math.Abs(float64(got[i])-w) > 1e-5*math.Abs(w)+1e-7 {
			t.Fatalf("embedding[%d] = %v, want %v (python model2vec)", i, got[i], w)
		}
	}
	ids := m.tokenize(m.normalizeText("Hello, World!"))
	var toks []string
	for _, id := range ids {
		for s, i := range m.vocab {
			if i == id {
				toks = append(toks, s)
			}
		}
	}
	if strings.Join(toks, " ") != "▁hello ▁, ▁world ▁!" {
		t.Errorf("tokens of %q: %q", "Hello, World!", toks)
	}
}
