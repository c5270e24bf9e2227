// The class server on loopback, as a phone and as an attacker reach it:
// the page, join, state and answer through an HTTP client (cpp-httplib's),
// and hostile requests over raw sockets: malformed HTTP, a body over 4 KiB,
// paths that climb out ("..", encoded), a wrong session code, answers after
// the lock, another site's Origin, a flood from one device, script in a
// nickname. Each is refused, and the tally is unchanged.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "attn/compute/trace.hpp"
#include "attn/io/lesson_file.hpp"
#include "model/classroom/class_server.hpp"
#include "model/classroom/class_tally.hpp"

namespace {

const attn::io::LessonFile& lesson() {
  static const attn::io::LessonFile l = attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json");
  return l;
}

// A session on step `step` of lesson 01, served on a free loopback port.
struct Served {
  model::ClassRoom room{model::ClassSession("K7M3QX")};
  model::ClassServer server{room};
  attn::Trace trace;
  explicit Served(size_t step, model::ServerLimits limits = {}) : server(room, limits), trace(attn::compute_trace(lesson().steps[step].scene.scenario)) {
    std::string why;
    const auto q = model::class_question(lesson().steps[step], static_cast<int>(step), trace, &why);
    REQUIRE_MESSAGE(q, why);
    room.change([&](model::ClassSession& s) { s.ask(*q); });
    REQUIRE(server.start("127.0.0.1", 0) == "");
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", server.port());
    c.set_connection_timeout(5);
    c.set_read_timeout(5);
    return c;
  }
};

httplib::Result post(httplib::Client& c, const std::string& path, const nlohmann::json& body) {
  return c.Post(path.c_str(), body.dump(), "application/json");
}

// Sends `raw` on a fresh connection, keeping it open for writing (a client
// that half-closes is answered with nothing), and returns what came back
// until the server closes or 3 s pass.
std::string raw_exchange(int port, const std::string& raw) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  timeval tv{3, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  size_t sent = 0;
  while (sent < raw.size()) {
    const ssize_t n = ::send(fd, raw.data() + sent, raw.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string reply;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    reply.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return reply;
}

int status_of(const std::string& reply) { return reply.size() > 12 && reply.rfind("HTTP/1.", 0) == 0 ? std::stoi(reply.substr(9, 3)) : 0; }

}  // namespace

TEST_CASE("class server: a phone gets the page, joins, sees the question, answers, changes it, and sees the reveal") {
  Served s(4);  // a choice question
  httplib::Client c = s.client();
  const auto page = c.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->get_header_value("Content-Type").find("text/html") == 0);
  CHECK(page->body.find("/api/answer") != std::string::npos);
  CHECK(page->body.find("http://") == std::string::npos);  // no outside resource: no CDN

  const std::string device = "phone-abcdef012345";
  auto r = post(c, "/api/join", {{"code", "K7M3QX"}, {"device", device}, {"nickname", "Ada"}});
  REQUIRE(r);
  CHECK_MESSAGE(r->status == 200, r->body);
  auto state = c.Get(("/api/state?code=K7M3QX&device=" + device).c_str());
  REQUIRE(state);
  REQUIRE(state->status == 200);
  nlohmann::json v = nlohmann::json::parse(state->body);
  CHECK(v["joined"] == true);
  CHECK(v["phase"] == "open");
  CHECK(v["question"]["form"] == "choice");
  CHECK(v["question"]["choices"].size() == 3);
  CHECK(v["mine"].is_null());

  r = post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 0}}}});
  REQUIRE(r);
  CHECK(r->status == 200);
  r = post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 1}}}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(s.room.snapshot().answered() == 1);
  v = nlohmann::json::parse(c.Get(("/api/state?code=K7M3QX&device=" + device).c_str())->body);
  CHECK(v["mine"]["choice"] == 1);

  s.room.change([&](model::ClassSession& cs) {
    cs.lock();
    cs.reveal(model::lesson_judge(*lesson().steps[4].question, s.trace), model::lesson_truth(*lesson().steps[4].question, s.trace));
  });
  v = nlohmann::json::parse(c.Get(("/api/state?code=K7M3QX&device=" + device).c_str())->body);
  CHECK(v["phase"] == "revealed");
  CHECK(v["truth"]["choice"] == 1);
  CHECK(v["right"] == true);
  s.server.stop();
  CHECK_FALSE(s.server.running());
  CHECK_FALSE(c.Get("/"));  // nothing listens any more
}

TEST_CASE("class server: hostile requests are refused and the tally is unchanged") {
  Served s(4, model::ServerLimits{4096, 1, 4, 4});
  httplib::Client c = s.client();
  const std::string device = "phone-0123456789ab";
  REQUIRE(post(c, "/api/join", {{"code", "K7M3QX"}, {"device", device}, {"nickname", "<script>alert(1)</script>"}})->status == 200);
  REQUIRE(post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 2}}}})->status == 200);
  const nlohmann::json before = s.room.snapshot().to_json();

  SUBCASE("a wrong or missing session code") {
    CHECK(post(c, "/api/answer", {{"code", "WRONG1"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 0}}}})->status == 403);
    CHECK(post(c, "/api/answer", {{"device", device}, {"step", 4}, {"answer", {{"choice", 0}}}})->status == 403);
    CHECK(c.Get(("/api/state?device=" + device).c_str())->status == 403);
  }
  SUBCASE("answers in the wrong form, to another step, from a stranger, after the lock") {
    CHECK(post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 9}}}})->status == 409);
    CHECK(post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"row", 0}, {"col", 0}}}})->status == 409);
    CHECK(post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 5}, {"answer", {{"choice", 0}}}})->status == 409);
    CHECK(post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", "stranger-0000"}, {"step", 4}, {"answer", {{"choice", 0}}}})->status == 409);
    CHECK(post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", "../../etc"}, {"step", 4}, {"answer", {{"choice", 0}}}})->status == 400);
    s.room.change([](model::ClassSession& cs) { cs.lock(); });
    const auto locked = post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 0}}}});
    CHECK(locked->status == 409);
    CHECK(locked->body.find("locked") != std::string::npos);
  }
  SUBCASE("a body over 4 KiB, and one that is no JSON") {
    nlohmann::json big = {{"code", "K7M3QX"}, {"device", device}, {"nickname", std::string(5000, 'x')}};
    const auto too_big = post(c, "/api/join", big);
    CHECK(too_big->status == 413);
    CHECK(too_big->body.find("larger than 4096 bytes") != std::string::npos);
    CHECK(c.Post("/api/answer", "{not json", "application/json")->status == 400);
    CHECK(c.Post("/api/answer", "[1,2,3]", "application/json")->status == 400);
  }
  SUBCASE("paths outside the page and the API, plain or encoded, and other methods: 404, nothing listed") {
    for (const char* path : {"/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd", "/assets/", "/index.html", "/api/",
                             "/api/state/../../etc/passwd", "//etc/passwd"}) {
      const std::string shown = path;
      CAPTURE(shown);
      const std::string reply = raw_exchange(s.server.port(), std::string("GET ") + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      const int status = status_of(reply);
      CHECK((status == 404 || status == 400 || status == 403));
      CHECK(reply.find("root:") == std::string::npos);
    }
    CHECK(c.Delete("/api/state")->status == 404);
  }
  SUBCASE("malformed HTTP and a client that stops mid-request") {
    CHECK(status_of(raw_exchange(s.server.port(), "GARBAGE\r\n\r\n")) == 400);
    CHECK(status_of(raw_exchange(s.server.port(), "POST /api/answer HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n{")) == 413);
    CHECK(status_of(raw_exchange(s.server.port(), "POST /api/answer HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n{}")) >= 400);
    // Slow loris: the headers never end; the server closes after its idle time.
    const std::string slow = raw_exchange(s.server.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n");
    CHECK(slow.find("200 OK") == std::string::npos);
    CHECK(c.Get("/")->status == 200);  // and it still serves others
  }
  SUBCASE("another site's page may not post") {
    httplib::Headers h = {{"Origin", "http://evil.example"}};
    const auto r = c.Post("/api/answer", h, nlohmann::json{{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 0}}}}.dump(),
                          "application/json");
    CHECK(r->status == 403);
  }
  SUBCASE("a flood from one device is slowed down") {
    int refused = 0;
    for (int i = 0; i < 40; ++i) {
      const auto r = post(c, "/api/answer", {{"code", "K7M3QX"}, {"device", device}, {"step", 4}, {"answer", {{"choice", 9}}}});
      refused += r && r->status == 429 ? 1 : 0;
    }
    CHECK(refused >= 24);  // 4 a second, counted over 2 s: 8 pass a window, the join and first answer among them
  }
  CHECK(s.room.snapshot().to_json()["asked"][0]["answers"] == before["asked"][0]["answers"]);
  // The nickname is kept as text, and JSON carries it as text.
  CHECK(s.room.snapshot().nickname(device) == "<script>alert(1)</script>");
}
