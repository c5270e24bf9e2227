// ClassServer over cpp-httplib. The Origin is checked before any route (the
// pre-routing handler); each API handler then admits the request (its JSON
// body, the session code, the device's id and rate) and calls the
// ClassRoom, which checks the rest (the form, the phase, the limits) under
// its lock.
#include "model/classroom/class_server.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "model/classroom/student_page.hpp"

namespace model {

namespace {

void reply_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", message}}.dump(), "application/json");
}

}  // namespace

// Requests per device in the current two-second window. A window holds at
// most 4096 devices (eight times the class limit): past that a new id waits
// for the next window, so a flood of made-up ids can neither fill memory nor
// reset the counts of the others.
class DeviceRateLimit {
 public:
  explicit DeviceRateLimit(int per_second) : per_window_(2 * per_second) {}
  bool allow(const std::string& device) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (now - window_start_ > std::chrono::seconds(2)) {
      counts_.clear();
      window_start_ = now;
    }
    const auto it = counts_.find(device);
    if (it == counts_.end()) {
      if (counts_.size() >= 4096) return false;
      counts_[device] = 1;
      return per_window_ >= 1;
    }
    return ++it->second <= per_window_;
  }

 private:
  int per_window_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point window_start_ = std::chrono::steady_clock::now();
  std::map<std::string, int> counts_;
};

struct ClassServer::Impl {
  ClassRoom& room;
  ServerLimits limits;
  httplib::Server server;
  DeviceRateLimit rate;
  std::thread thread;
  std::string address;
  int port = 0;

  Impl(ClassRoom& r, ServerLimits l) : room(r), limits(l), rate(l.requests_per_second) {}
};

namespace {

// The checks every API call passes before it reaches the room: the body (for
// a POST) is a JSON object, the session code is this session's, the device
// id has a safe form, and the device is within its rate. The body is read
// after the pre-routing handler runs, so these run in the handlers.
bool admit(const httplib::Request& req, httplib::Response& res, ClassRoom& room, DeviceRateLimit& rate, nlohmann::json* body,
           std::string* device) {
  std::string code;
  if (req.method == "GET") {
    code = req.get_param_value("code");
    *device = req.get_param_value("device");
  } else {
    *body = nlohmann::json::parse(req.body, nullptr, false);
    if (!body->is_object()) {
      reply_error(res, 400, "the request's body is not a JSON object");
      return false;
    }
    if (body->contains("code") && (*body)["code"].is_string()) code = (*body)["code"].get<std::string>();
    if (body->contains("device") && (*body)["device"].is_string()) *device = (*body)["device"].get<std::string>();
  }
  if (code != room.code()) {
    reply_error(res, 403, "the session code is wrong");
    return false;
  }
  if (!valid_device_id(*device)) {
    reply_error(res, 400, "the device id is not acceptable");
    return false;
  }
  if (!rate.allow(*device)) {
    reply_error(res, 429, "too many requests: wait a moment");
    return false;
  }
  return true;
}

}  // namespace

ClassServer::ClassServer(ClassRoom& room, ServerLimits limits) : impl_(std::make_unique<Impl>(room, limits)) {
  httplib::Server& s = impl_->server;
  Impl* impl = impl_.get();
  s.new_task_queue = [threads = limits.threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  s.set_payload_max_length(limits.max_body);
  s.set_read_timeout(limits.idle_seconds, 0);
  s.set_write_timeout(limits.idle_seconds, 0);
  s.set_keep_alive_timeout(limits.idle_seconds);
  // One request a connection: a kept-alive phone holds one of the pool's
  // threads until it has been idle for idle_seconds, so eight polling
  // phones kept the ninth waiting 5 s. A phone's poll every 1.5 s opens a
  // new connection instead, which costs nothing on a LAN.
  s.set_keep_alive_max_count(1);
  // httplib writes a reply's headers and body apart: without this, Nagle's
  // algorithm held the body until the headers were acknowledged, 40 ms on
  // every request (p50 44 ms against 0.1 ms for 300 students).
  s.set_tcp_nodelay(true);

  s.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Cache-Control", "no-store");
    // A page of another site may not post to the class: its Origin would
    // name that site. The student page's own requests name this server.
    if (req.has_header("Origin")) {
      const std::string origin = req.get_header_value("Origin");
      if (origin != "http://" + req.get_header_value("Host")) {
        reply_error(res, 403, "requests from another site are refused");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  s.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'");
    res.set_content(student_page_html(), "text/html; charset=utf-8");
  });
  s.Get("/api/state", [impl](const httplib::Request& req, httplib::Response& res) {
    nlohmann::json body;
    std::string device;
    if (!admit(req, res, impl->room, impl->rate, &body, &device)) return;
    res.set_content(impl->room.student_view(device).dump(), "application/json");
  });
  s.Post("/api/join", [impl](const httplib::Request& req, httplib::Response& res) {
    nlohmann::json body;
    std::string device;
    if (!admit(req, res, impl->room, impl->rate, &body, &device)) return;
    const std::string nickname = body.contains("nickname") && body["nickname"].is_string() ? body["nickname"].get<std::string>() : "";
    if (const std::string problem = impl->room.join(device, nickname); !problem.empty())
      return reply_error(res, problem.find("full") != std::string::npos ? 503 : 400, problem);
    res.set_content(R"({"ok":true})", "application/json");
  });
  s.Post("/api/answer", [impl](const httplib::Request& req, httplib::Response& res) {
    nlohmann::json body;
    std::string device;
    if (!admit(req, res, impl->room, impl->rate, &body, &device)) return;
    if (const std::string problem = impl->room.answer(device, body); !problem.empty()) return reply_error(res, 409, problem);
    res.set_content(R"({"ok":true})", "application/json");
  });
  // Anything else, whatever its path or method: 404, listing nothing.
  s.set_error_handler([max_body = limits.max_body](const httplib::Request&, httplib::Response& res) {
    if (res.status == 404 || res.status == 405) return reply_error(res, 404, "not found");
    if (res.status == 413) return reply_error(res, 413, "the request is larger than " + std::to_string(max_body) + " bytes");
    if (res.body.empty()) reply_error(res, res.status, "bad request");
  });
  s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    reply_error(res, 400, "the request could not be read");
  });
}

ClassServer::~ClassServer() { stop(); }

std::string ClassServer::start(const std::string& address, int port) {
  if (running()) return "the class server is already running on port " + std::to_string(impl_->port);
  httplib::Server& s = impl_->server;
  const int bound = port == 0 ? s.bind_to_any_port(address) : (s.bind_to_port(address, port) ? port : -1);
  if (bound <= 0)
    return port == 0 ? "no free port on " + address : "the port " + std::to_string(port) + " is taken on " + address + ", or the address is not this machine's";
  impl_->address = address;
  impl_->port = bound;
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  return "";
}

void ClassServer::stop() {
  if (!impl_->thread.joinable()) return;
  impl_->server.stop();
  impl_->thread.join();
}

bool ClassServer::running() const { return impl_->thread.joinable() && impl_->server.is_running(); }
int ClassServer::port() const { return impl_->port; }
std::string ClassServer::join_address() const { return "http://" + impl_->address + ":" + std::to_string(impl_->port); }

std::unique_ptr<ClassListener> make_class_server(ClassRoom& room) { return std::make_unique<ClassServer>(room); }

}  // namespace model
