//! bytes -> UTF-8 text (placeholder, see issue 2)
