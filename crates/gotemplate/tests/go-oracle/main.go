// Command template-oracle renders the differential corpus of olm-release's template engine with
// Go's own text/template (and, for the cases that ask for it, the sprig subset olm-release
// offers), so the Rust engine can be compared with Go byte for byte.
//
// Usage: template-oracle CORPUS_DIR > results.json
//
// The corpus format is described in tests/template-corpus/README.md. Every case is parsed with
// template.New(name).Option("missingkey=error"), given the corpus data (data.yaml, merged with
// the case's `--- data:` or replaced by its `--- dot:`), and executed. The result per case is
// whether it rendered, the bytes it rendered (base64) and Go's error text.
//
// Built offline by scripts/peers/go.sh in GOPATH mode against Debian's packaged sources
// (golang-github-masterminds-sprig-dev, golang-gopkg-yaml.v2-dev, golang-gopkg-yaml.v3-dev).
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	yamlv2 "gopkg.in/yaml.v2"
	yaml "gopkg.in/yaml.v3"
)

type testCase struct {
	File     string                       `json:"file"`
	Name     string                       `json:"name"`
	Sprig    bool                         `json:"-"`
	Data     map[string]interface{}       `json:"-"`
	Dot      interface{}                  `json:"-"`
	HasDot   bool                         `json:"-"`
	Includes map[string]map[string]string `json:"-"`
	Text     string                       `json:"-"`
}

type result struct {
	File  string `json:"file"`
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Out   string `json:"out_base64"`
	Error string `json:"error"`
}

type report struct {
	Go      string   `json:"go"`
	Results []result `json:"results"`
}

// sprigSubset is the part of sprig olm-release offers under `render.functions: sprig`.
var sprigSubset = []string{
	"default", "empty", "coalesce", "ternary", "quote", "squote", "upper", "lower", "title",
	"trim", "trimPrefix", "trimSuffix", "replace", "contains", "hasPrefix", "hasSuffix",
	"split", "join", "list", "dict", "get", "hasKey", "keys", "indent", "nindent", "toJson",
	"b64enc", "b64dec", "sha256sum", "semverCompare", "fail",
}

func funcMap() template.FuncMap {
	all := sprig.TxtFuncMap()
	m := template.FuncMap{}
	for _, name := range sprigSubset {
		f, ok := all[name]
		if !ok {
			panic("sprig has no " + name)
		}
		m[name] = f
	}
	// toYaml and required are Helm's, not sprig's; defined here as Helm defines them.
	m["toYaml"] = toYaml
	m["required"] = required
	return m
}

// toYaml as Helm writes it: through JSON (sigs.k8s.io/yaml), then yaml.v2, final newline trimmed.
func toYaml(v interface{}) string {
	j, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var obj interface{}
	if err := yamlv2.Unmarshal(j, &obj); err != nil {
		return ""
	}
	out, err := yamlv2.Marshal(obj)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(out), "\n")
}

// required as Helm defines it: nil or an empty string is an error with the given message.
func required(warn string, val interface{}) (interface{}, error) {
	if val == nil {
		return val, errors.New(warn)
	} else if s, ok := val.(string); ok && s == "" {
		return val, errors.New(warn)
	}
	return val, nil
}

func parseYAML(text string, what string) interface{} {
	var v interface{}
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		panic(fmt.Sprintf("%s: %v", what, err))
	}
	return v
}

func loadCases(dir string) []testCase {
	base := parseYAML(readFile(filepath.Join(dir, "data.yaml")), "data.yaml").(map[string]interface{})
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	sort.Strings(files)
	var cases []testCase
	for _, f := range files {
		cases = append(cases, parseFile(f, base)...)
	}
	return cases
}

func readFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// parseFile reads one corpus file: `=== NAME` starts a case, `--- KEY[: VALUE]` lines right
// after it are directives, the rest up to the next `===` line (without its final newline) is
// the template. Lines are split on \n alone, so a carriage return stays in the template.
func parseFile(path string, base map[string]interface{}) []testCase {
	file := filepath.Base(path)
	all := strings.Split(readFile(path), "\n")
	// The file's final newline ends the last line; it is not a line of its own.
	if len(all) > 0 && all[len(all)-1] == "" {
		all = all[:len(all)-1]
	}
	var cases []testCase
	var cur *testCase
	var lines []string
	inHeader := false
	flush := func() {
		if cur != nil {
			cur.Text = strings.Join(lines, "\n")
			cases = append(cases, *cur)
		}
	}
	for _, line := range all {
		if strings.HasPrefix(line, "=== ") {
			flush()
			cur = &testCase{File: file, Name: strings.TrimSpace(line[4:]), Sprig: strings.HasPrefix(file, "sprig")}
			cur.Data = map[string]interface{}{}
			for k, v := range base {
				cur.Data[k] = v
			}
			lines = nil
			inHeader = true
			continue
		}
		if cur == nil {
			continue // comments before the first case
		}
		if inHeader && strings.HasPrefix(line, "--- ") {
			key, value, _ := strings.Cut(line[4:], ":")
			value = strings.TrimSpace(value)
			switch strings.TrimSpace(key) {
			case "sprig":
				cur.Sprig = true
			case "data":
				for k, v := range parseYAML(value, cur.Name).(map[string]interface{}) {
					cur.Data[k] = v
				}
			case "dot":
				cur.Dot = parseYAML(value, cur.Name)
				cur.HasDot = true
			case "include":
				var inc map[string]map[string]string
				if err := yaml.Unmarshal([]byte(value), &inc); err != nil {
					panic(err)
				}
				cur.Includes = inc
			case "deviation":
			default:
				panic(fmt.Sprintf("%s: %s: unknown directive %q", file, cur.Name, key))
			}
			continue
		}
		inHeader = false
		lines = append(lines, line)
	}
	flush()
	return cases
}

func run(c testCase) result {
	r := result{File: c.File, Name: c.Name}
	t := template.New(c.Name).Option("missingkey=error")
	if c.Sprig {
		t = t.Funcs(funcMap())
	}
	var data interface{} = c.Data
	for name, files := range c.Includes {
		m := map[string]interface{}{}
		for k, v := range files {
			m[k] = v
		}
		c.Data[name] = m
	}
	if c.HasDot {
		data = c.Dot
	}
	t, err := t.Parse(c.Text)
	if err == nil {
		var out bytes.Buffer
		err = t.Execute(&out, data)
		if err == nil {
			r.OK = true
			r.Out = base64.StdEncoding.EncodeToString(out.Bytes())
			return r
		}
	}
	r.Error = err.Error()
	return r
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: template-oracle CORPUS_DIR")
		os.Exit(2)
	}
	rep := report{Go: runtime.Version()}
	for _, c := range loadCases(os.Args[1]) {
		rep.Results = append(rep.Results, run(c))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		panic(err)
	}
}
