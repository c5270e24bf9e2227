// The page a student's phone opens: one HTML document with its style and
// script inside, built into the binary (no CDN, no internet). It joins with
// the session code from its address (?code=...), keeps a random device id
// in the browser's storage so a reload or a phone waking rejoins, asks
// /api/state every second and a half, and sends answers to /api/answer.
// Every text from the server is set as text (textContent), never as HTML.
#pragma once

#include <string>

namespace model {

const std::string& student_page_html();

}  // namespace model
