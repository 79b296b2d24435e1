package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/teach/class"
)

// classCmd is an instructor's tools from a shell, through a running server's API
// (/api/v1/class) with the instructor's token, so that they work on every backend, the memory
// one included, and on any server of a cluster: accounts makes a class's accounts and prints
// them as CSV, roster prints its learners, reset clears what they did.
func classCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, classUsage)
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return flag.ErrHelp
		}
		return errUsage
	}
	verb, rest := args[0], args[1:]
	fs := newFlagSet("class "+verb, stderr)
	var (
		base, token, name, confirm string
		n                          int
	)
	fs.StringVar(&base, "url", "http://127.0.0.1:8080", "the running server")
	fs.StringVar(&token, "instructor-token", "", "the server's instructor token (--instructor-token of serve)")
	fs.StringVar(&name, "class", "", "the class: 1 to 16 ASCII letters, digits or underscores; its accounts are <class>_001, <class>_002, ...")
	switch verb {
	case "accounts":
		fs.IntVar(&n, "n", 30, fmt.Sprintf("how many accounts to make (1 to %d, a class's most), asked of the server %d at a time", teaching.ClassMax, accountsBatch))
	case "reset":
		fs.StringVar(&confirm, "confirm", "", "the class's name again: the reset clears its learners' progress and activity")
	case "roster":
	default:
		fmt.Fprintf(stderr, "twissandra class: unknown command %q\n\n%s", verb, classUsage)
		return errUsage
	}
	if err := parseConfig(fs, rest, nil); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		var envErr interface{ Unwrap() []error }
		if errors.As(err, &envErr) {
			return err
		}
		return errUsage // the flag package has printed it
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if name == "" {
		return errors.New("--class is required")
	}
	if token == "" {
		return errors.New("--instructor-token (or TWISSANDRA_INSTRUCTOR_TOKEN) is required: the secret the server was started with")
	}
	path := "/api/v1/class/" + url.PathEscape(name)
	switch verb {
	case "accounts":
		if n < 1 || n > teaching.ClassMax {
			return fmt.Errorf("--n %d: want 1 to %d accounts", n, teaching.ClassMax)
		}
		// A few at a time, each a short request (every account is a bcrypt hash), printed as
		// they come: what an error stops, the accounts made before it are printed.
		var made []web.ClassAccount
		for len(made) < n {
			var out web.ClassAccounts
			err := classCall(ctx, base, token, http.MethodPost, path+"/accounts", map[string]int{"n": min(accountsBatch, n-len(made))}, &out)
			if err != nil {
				fmt.Fprint(stdout, class.CSV(made))
				return fmt.Errorf("after %d of %d accounts: %w", len(made), n, err)
			}
			made = append(made, out.Accounts...)
		}
		fmt.Fprint(stdout, class.CSV(made))
	case "roster":
		var out web.ClassRoster
		if err := classCall(ctx, base, token, http.MethodGet, path, nil, &out); err != nil {
			return err
		}
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "learner\tlessons\texercises\tlast action\twhen\tstatements")
		for _, l := range out.Learners {
			when := "-"
			if l.LastAt != nil {
				when = l.LastAt.UTC().Format(time.RFC3339)
			}
			last := l.LastAction
			if last == "" {
				last = "-"
			}
			fmt.Fprintf(w, "%s\t%d/%d\t%d/%d\t%s\t%s\t%d\n", l.Username, l.LessonsVisited, out.Lessons, l.ExercisesPassed, out.Exercises, last, when, l.Statements)
		}
		return w.Flush()
	case "reset":
		if confirm != name {
			return fmt.Errorf("--confirm %s is required: the reset clears the class's progress and activity", name)
		}
		var out web.ClassReset
		if err := classCall(ctx, base, token, http.MethodPost, path+"/reset", nil, &out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "class %s reset: %d learners' progress and activity cleared\nleft:\n", out.Class, out.Learners)
		for _, l := range out.Left {
			fmt.Fprintf(stdout, "  - %s\n", l)
		}
	}
	return nil
}

// accountsBatch is how many accounts one request of `class accounts` asks for.
const accountsBatch = 25

const classUsage = `Usage:
  twissandra class accounts --class NAME --n 30   make N accounts and print them as CSV (username,password)
  twissandra class roster --class NAME            each account's lessons, exercises, last action and console statements
  twissandra class reset --class NAME --confirm NAME  clear the class's progress and activity

Each speaks to a running server (--url) with its instructor token (--instructor-token, or
TWISSANDRA_INSTRUCTOR_TOKEN).
`

// classCall sends a request of the class's API and decodes its answer into out; an error
// answer is the server's message.
func classCall(ctx context.Context, base, token, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(base, "/")+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		var e web.ErrorBody
		if json.Unmarshal(raw, &e) == nil && e.Message != "" {
			return fmt.Errorf("%s %s: %d: %s", method, path, res.StatusCode, e.Message)
		}
		return fmt.Errorf("%s %s: %d", method, path, res.StatusCode)
	}
	return json.Unmarshal(raw, out)
}
