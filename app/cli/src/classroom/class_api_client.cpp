// The class API over cpp-httplib's client (see class_api_client.hpp). The
// client's own error names ("Connection", "Read") become sentences, since
// they end up in a teacher's terminal.
#include "classroom/class_api_client.hpp"

#include <chrono>
#include <stdexcept>

#include <httplib.h>

namespace attn::cli {

namespace {

std::string transport_problem(httplib::Error e) {
  switch (e) {
    case httplib::Error::Connection: return "nothing answers there (connection refused, or no route to the address)";
    case httplib::Error::ConnectionTimeout: return "the connection timed out";
    case httplib::Error::Read: return "the connection closed before a whole reply came";
    case httplib::Error::Write: return "the request could not be sent (the connection closed)";
    default: return "the HTTP client failed (" + httplib::to_string(e) + ")";
  }
}

ApiReply reply_of(const httplib::Result& r, std::chrono::steady_clock::time_point sent) {
  ApiReply out;
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count();
  if (!r) {
    out.problem = transport_problem(r.error());
    return out;
  }
  out.status = r->status;
  out.body = nlohmann::json::parse(r->body, nullptr, false);
  if (out.body.is_discarded()) out.body = nullptr;
  if (!out.ok()) {
    const bool message = out.body.is_object() && out.body.contains("error") && out.body["error"].is_string();
    out.problem = "HTTP " + std::to_string(r->status) + (message ? ": " + out.body["error"].get<std::string>() : "");
  }
  return out;
}

}  // namespace

JoinAddress parse_join_address(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0)
    throw std::invalid_argument("\"" + url + "\" is not an http:// address (the class server speaks plain HTTP, e.g. http://192.168.1.5:8765)");
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.find('/') != std::string::npos) throw std::invalid_argument("\"" + url + "\" has a path; give only http://ADDRESS:PORT");
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw std::invalid_argument("\"" + url + "\" names no port (the join address is http://ADDRESS:PORT)");
  const std::string port = rest.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) < 1 ||
      std::stoi(port) > 65535)
    throw std::invalid_argument("\"" + url + "\": the port \"" + port + "\" is not a number from 1 to 65535");
  return {rest.substr(0, colon), std::stoi(port)};
}

struct ClassApiClient::Impl {
  httplib::Client client;
  std::string code;
  Impl(const JoinAddress& a, std::string c) : client(a.host, a.port), code(std::move(c)) {
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    client.set_connection_timeout(5);
    client.set_read_timeout(10);
    client.set_write_timeout(10);
  }
  ApiReply post(const char* path, const nlohmann::json& body) {
    const auto sent = std::chrono::steady_clock::now();
    return reply_of(client.Post(path, body.dump(), "application/json"), sent);
  }
};

ClassApiClient::ClassApiClient(const JoinAddress& address, std::string code) : impl_(std::make_unique<Impl>(address, std::move(code))) {}
ClassApiClient::~ClassApiClient() = default;
ClassApiClient::ClassApiClient(ClassApiClient&&) noexcept = default;
ClassApiClient& ClassApiClient::operator=(ClassApiClient&&) noexcept = default;

ApiReply ClassApiClient::join(const std::string& device, const std::string& nickname) {
  return impl_->post("/api/join", {{"code", impl_->code}, {"device", device}, {"nickname", nickname}});
}

ApiReply ClassApiClient::state(const std::string& device) {
  const auto sent = std::chrono::steady_clock::now();
  return reply_of(impl_->client.Get("/api/state", httplib::Params{{"code", impl_->code}, {"device", device}}, httplib::Headers{}), sent);
}

ApiReply ClassApiClient::answer(const std::string& device, int step, const nlohmann::json& answer) {
  return impl_->post("/api/answer", {{"code", impl_->code}, {"device", device}, {"step", step}, {"answer", answer}});
}

}  // namespace attn::cli
