package model

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"twissandra/domain"
)

// Limits of the blog's fields. Lengths in code points unless named Bytes.
const (
	MaxSlugLen         = 100
	MaxTags            = 10
	MaxTitleLen        = 200
	MaxBodyBytes       = 20000
	MaxCommentLen      = 2000
	MaxCommenterLen    = 60
	MaxEmailLen        = 254
	MaxAuthorNameLen   = 100
	MaxProfileAttrs    = 20
	MaxProfileValueLen = 500 // bytes
)

var (
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// A tag has no comma (BlogEntries keeps the tags comma-separated) and no underscore (so no
	// tag can be NoTag).
	tagPattern        = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,29}$`)
	profileKeyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,29}$`)
	emailPattern      = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// ValidateSlug checks a slug: lowercase words of letters and digits joined by single hyphens,
// at most 100 characters.
func ValidateSlug(slug string) error {
	if len(slug) == 0 || len(slug) > MaxSlugLen || !slugPattern.MatchString(slug) {
		return domain.Invalid("slug", "must be lowercase letters and digits in words joined by single hyphens, at most %d characters", MaxSlugLen)
	}
	return nil
}

// NormalizeTag trims and lowercases one tag and checks it.
func NormalizeTag(tag string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(tag))
	if t == NoTag {
		return "", domain.Invalid("tags", "%q is reserved", NoTag)
	}
	if !tagPattern.MatchString(t) {
		return "", domain.Invalid("tags", "%q must be 1 to 30 lowercase letters, digits or hyphens, starting with a letter or digit", tag)
	}
	return t, nil
}

// NormalizeTags normalizes each tag, drops repeats and sorts them; at most 10 distinct tags.
func NormalizeTags(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for _, tag := range tags {
		t, err := NormalizeTag(tag)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > MaxTags {
		return nil, domain.Invalid("tags", "at most %d tags (got %d)", MaxTags, len(out))
	}
	return out, nil
}

// text trims s and checks it is valid UTF-8 of 1 to max code points.
func text(field, s string, max int) (string, error) {
	if !utf8.ValidString(s) {
		return "", domain.Invalid(field, "must be valid UTF-8")
	}
	if err := domain.CheckText(field, s); err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return "", domain.Invalid(field, "must not be empty")
	}
	if n > max {
		return "", domain.Invalid(field, "must be at most %d characters (got %d)", max, n)
	}
	return s, nil
}

// NormalizeTitle trims a title and checks 1 to 200 code points.
func NormalizeTitle(title string) (string, error) { return text("title", title, MaxTitleLen) }

// NormalizeBody trims an entry body and checks 1 to 20000 bytes of valid UTF-8.
func NormalizeBody(body string) (string, error) {
	if !utf8.ValidString(body) {
		return "", domain.Invalid("body", "must be valid UTF-8")
	}
	if err := domain.CheckText("body", body); err != nil {
		return "", err
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return "", domain.Invalid("body", "must not be empty")
	}
	if len(body) > MaxBodyBytes {
		return "", domain.Invalid("body", "must be at most %d bytes (got %d)", MaxBodyBytes, len(body))
	}
	return body, nil
}

// NormalizeCommentText trims a comment and checks 1 to 2000 code points.
func NormalizeCommentText(s string) (string, error) { return text("text", s, MaxCommentLen) }

// NormalizeCommenter trims a commenter's name and checks 1 to 60 code points.
func NormalizeCommenter(name string) (string, error) { return text("name", name, MaxCommenterLen) }

// NormalizeEmail trims an optional email address and checks its shape (something@host.tld, no
// spaces) and length; "" stays "".
func NormalizeEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", nil
	}
	if len(email) > MaxEmailLen || !utf8.ValidString(email) || !emailPattern.MatchString(email) {
		return "", domain.Invalid("email", "must look like name@example.com, at most %d characters", MaxEmailLen)
	}
	return email, nil
}

// ValidateAuthorName checks an author's name, the Authors row key: 1 to 100 code points of valid
// UTF-8, no control characters, no surrounding spaces (a key is looked up exactly, so it is not
// trimmed silently).
func ValidateAuthorName(name string) error {
	if !utf8.ValidString(name) {
		return domain.Invalid("author", "must be valid UTF-8")
	}
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxAuthorNameLen {
		return domain.Invalid("author", "must be 1 to %d characters", MaxAuthorNameLen)
	}
	if strings.TrimSpace(name) != name {
		return domain.Invalid("author", "must not begin or end with spaces")
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return domain.Invalid("author", "must not contain control characters")
	}
	if err := domain.CheckText("author", name); err != nil {
		return err
	}
	return nil
}

// ValidateProfile checks an author's profile: at most 20 attributes, named like "twitter" or
// "home_page" (lowercase, so never the numPosts column), each value valid UTF-8 of at most 500
// bytes.
func ValidateProfile(profile map[string]string) error {
	if len(profile) > MaxProfileAttrs {
		return domain.Invalid("profile", "at most %d attributes (got %d)", MaxProfileAttrs, len(profile))
	}
	for k, v := range profile {
		if !profileKeyPattern.MatchString(k) {
			return domain.Invalid("profile", "attribute %q must be 1 to 30 lowercase letters, digits or underscores, starting with a letter", k)
		}
		if len(v) > MaxProfileValueLen || !utf8.ValidString(v) {
			return domain.Invalid("profile", "attribute %q must be valid UTF-8 of at most %d bytes", k, MaxProfileValueLen)
		}
		if err := domain.CheckText("profile", v); err != nil {
			return err
		}
	}
	return nil
}
