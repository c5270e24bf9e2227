// The student's side of the class server's API (app/model's class_server:
// POST /api/join, GET /api/state, POST /api/answer) as one phone's browser
// calls it, over cpp-httplib's client. One client per thread; it asks to keep
// its connection alive, as a phone's browser does, and reconnects when the
// server closes it (the class server answers one request a connection).
// Used by `attn class simulate`.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace attn::cli {

// Where the class listens, from the join address the teacher shows
// ("http://192.168.1.5:8765"). Throws std::invalid_argument naming what is
// wrong with it (not http://, no port, a port out of range).
struct JoinAddress {
  std::string host;
  int port = 0;
};
JoinAddress parse_join_address(const std::string& url);

// One call's outcome: `status` 0 when no reply came (then `problem` says
// why: nothing listens, a timeout...), else the HTTP status, the reply's JSON
// (null when it was not JSON) and, for a refusal, the server's own message.
struct ApiReply {
  int status = 0;
  nlohmann::json body;
  std::string problem;
  double ms = 0;  // from sending the request to the whole reply read
  bool ok() const { return status == 200; }
};

class ClassApiClient {
 public:
  ClassApiClient(const JoinAddress& address, std::string code);
  ~ClassApiClient();
  ClassApiClient(ClassApiClient&&) noexcept;
  ClassApiClient& operator=(ClassApiClient&&) noexcept;

  ApiReply join(const std::string& device, const std::string& nickname);
  ApiReply state(const std::string& device);
  ApiReply answer(const std::string& device, int step, const nlohmann::json& answer);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace attn::cli
