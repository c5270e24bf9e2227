// What the user (View menu, the command line) and the Model view do with
// the compare view: each action takes the document and the view's own state.
#pragma once

#include <string>

#include "model/compare/compare.hpp"
#include "model/document/app_state.hpp"

namespace model::actions {

// A fixed scene as A against the document as B (which later edits change),
// labelled; `open` also shows the view.
void compare_with_document(CompareState& c, attn::Scenario a, std::string label_a, std::string label_b, bool open);
// The Model view's before and after, opened at once on `head`'s weights:
// A = the document (a real layer with every head on, or on the clean
// prompt), B = the same layer from a pass with heads switched off (or on
// patching's corrupted prompt).
void compare_switched_off(AppState& s, CompareState& c, attn::Scenario b, std::string label_a, std::string label_b, int head);
// Keeps the open scene as A; B stays the document, so the next edits show
// against it.
void take_snapshot(AppState& s, CompareState& c);
// Opens the view when there is something to compare (else says what to do).
void open_compare(AppState& s, CompareState& c);
void close_compare(CompareState& c);
// The stage and head the view shows; the head is kept within 0..heads-1.
void choose_compare_stage(CompareState& c, attn::StageKind stage);
void choose_compare_head(CompareState& c, int head, int heads);
// `attnviz B.json --compare-with A.json`: A from a file, B the document.
// False (with s.message saying why) when the file cannot be loaded.
bool compare_with_file(AppState& s, CompareState& c, const std::string& path);
}  // namespace model::actions
