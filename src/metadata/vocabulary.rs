//! The words metadata extraction reads in markup and values, in one place.

/// Words that open a byline before the name (compared without case; whole words).
pub const BYLINE_PREFIXES: &[&str] = &[
    "written by",
    "posted by",
    "published by",
    "reviewed by",
    "story by",
    "words by",
    "by",
    "author:",
    "authors:",
    "author",
    "autor:",
    "autor",
    "auteur:",
    "par",
    "von",
    "por",
    "door",
];

/// Values of an author field that name a role or an account, not a person (compared without
/// case, spaces or punctuation).
pub const NOT_PERSONS: &[&str] = &[
    "admin",
    "administrator",
    "webmaster",
    "root",
    "user",
    "guest",
    "anonymous",
    "unknown",
    "staff",
    "editor",
    "editors",
    "editorial",
    "editorial staff",
    "editorial team",
    "editorial board",
    "the editors",
    "news desk",
    "newsdesk",
    "team",
    "our team",
    "support",
    "support team",
    "contributor",
    "contributors",
    "guest author",
    "guest contributor",
    "author",
    "redaktion",
    "rédaction",
    "redacción",
    "redazione",
    "redactie",
    "null",
    "none",
    "undefined",
    "system",
    "post",
    "posted",
    "via",
    "about the author",
    "about author",
    "follow author",
    "follow",
    "share",
    "published",
    "updated",
];

/// Nouns that end a job title (`Local Affairs Reporter`, `Senior Editor`): a comma piece of a
/// byline whose words hold one is the author's role, not a second author (compared without
/// case; whole words).
pub const JOB_TITLE_WORDS: &[&str] = &[
    "reporter",
    "correspondent",
    "editor",
    "writer",
    "columnist",
    "journalist",
    "contributor",
    "critic",
    "producer",
    "photographer",
    "photojournalist",
    "videographer",
    "analyst",
    "blogger",
    "commentator",
    "anchor",
    "host",
    "presenter",
    "freelancer",
    "intern",
    "director",
    "manager",
    "officer",
    "chief",
    "founder",
    "co-founder",
    "ceo",
    "president",
    "professor",
    "lecturer",
    "researcher",
    "scientist",
    "economist",
    "strategist",
    "consultant",
    "specialist",
    "coordinator",
    "advisor",
    "adviser",
    "attorney",
    "lawyer",
    "dietitian",
    "nutritionist",
    "physician",
    "correspondents",
    "reporters",
    "writers",
    "editors",
];

/// What a `class` or `itemprop` token of an element inside a byline holds when that element
/// gives the author's job title or role, not a name (lower-cased, as a substring:
/// `jobTitle`, `author-job-title`, `byline__role`, `author-position`).
pub const ROLE_CLASS_WORDS: &[&str] = &["jobtitle", "job-title", "job_title", "role", "position"];

// The class words of bylines and datelines live with the pass that reads every class
// attribute (`features::bylines`), which marks the elements they name.
pub use crate::features::bylines::{
    BYLINE_CLASS_WORDS, DATE_CLASS_WORDS, NOT_BYLINE_CLASS_WORDS, NOT_DATE_CLASS_WORDS,
};

/// schema.org types of an article-like main entity (JSON-LD `@type`, microdata `itemtype`).
pub const ARTICLE_TYPES: &[&str] = &[
    "article",
    "newsarticle",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "reviewnewsarticle",
    "backgroundnewsarticle",
    "scholarlyarticle",
    "techarticle",
    "report",
    "liveblogposting",
    "socialmediaposting",
    "discussionforumposting",
    "posting",
    "review",
    "recipe",
    "howto",
    "creativework",
    "medicalwebpage",
    "apireference",
];

/// schema.org types that name the site or its owner (their `name` is a site name).
pub const SITE_TYPES: &[&str] = &[
    "website",
    "organization",
    "newsmediaorganization",
    "corporation",
];

/// The page `type` [`crate::metadata::Metadata::page_type`] gives, by the schema.org or
/// OpenGraph type declared (lower-cased): WCXB's page types.
pub const PAGE_TYPES: &[(&str, &str)] = &[
    ("article", "article"),
    ("newsarticle", "article"),
    ("blogposting", "article"),
    ("reportagenewsarticle", "article"),
    ("analysisnewsarticle", "article"),
    ("opinionnewsarticle", "article"),
    ("scholarlyarticle", "article"),
    ("liveblogposting", "article"),
    ("report", "article"),
    ("review", "article"),
    ("recipe", "article"),
    ("techarticle", "documentation"),
    ("apireference", "documentation"),
    ("product", "product"),
    ("productgroup", "product"),
    ("og:product", "product"),
    ("product.item", "product"),
    ("discussionforumposting", "forum"),
    ("qapage", "forum"),
    ("collectionpage", "collection"),
    ("itemlist", "listing"),
    ("searchresultspage", "listing"),
];
