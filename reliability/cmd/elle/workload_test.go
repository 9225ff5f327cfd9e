package main

import (
	"strings"
	"testing"

	"hekla/reliability/elle"
)

func TestParseList(t *testing.T) {
	list, err := parseList(" 3 1 12")
	if err != nil || len(list) != 3 || list[0] != 3 || list[1] != 1 || list[2] != 12 {
		t.Errorf("parseList(\" 3 1 12\") = %v, %v", list, err)
	}
	if list, err := parseList(""); err != nil || len(list) != 0 {
		t.Errorf("parseList(\"\") = %v, %v", list, err)
	}
	if _, err := parseList(" 1 x"); err == nil {
		t.Error("parseList(\" 1 x\"): no error")
	}
}

func TestLevelsReachTheServer(t *testing.T) {
	hints := map[elle.Level]string{elle.Snapshot: "SNAPSHOT", elle.RepeatableRead: "REPEATABLEREAD", elle.Serializable: "SERIALIZABLE"}
	for level, hint := range hints {
		if got := tableHint(level); got != hint {
			t.Errorf("tableHint(%s) = %s, want %s", level, got, hint)
		}
		w := &workload{model: elle.Register, level: level, hint: level, table: "t"}
		proc := w.procedure()
		for _, want := range []string{"TRANSACTION ISOLATION LEVEL = " + string(level), "@i4 INT", "SET v = @i4 WHERE k = @k4"} {
			if !strings.Contains(proc, want) {
				t.Errorf("%s procedure lacks %q:\n%s", level, want, proc)
			}
		}
	}
}
