//! OLM v1's reasons to refuse a bundle, in its words.
