// The web server students reach from their phones: cpp-httplib (Debian
// libcpp-httplib-dev) on its own threads, off the UI thread. It serves the
// student page and a three-call API over the ClassRoom, nothing else: no
// file is read from disk, so no path can reach the teacher's files.
//
//   GET  /                       the student page (student_page.hpp)
//   GET  /api/state?code=&device= what that student's page shows
//   POST /api/join   {"code", "device", "nickname"}
//   POST /api/answer {"code", "device", "step", "answer": {...}}
//
// Every API call needs the session code. Bodies over 4 KiB are refused, a
// connection that sends nothing for 5 s is closed, a device sending more
// than its share of requests is told to slow down (429), and a request from
// another site's page (an Origin that is not this server) is refused. No
// address of a client is kept.
#pragma once

#include <memory>
#include <string>

#include "model/classroom/class_listener.hpp"
#include "model/classroom/class_room.hpp"

namespace model {

struct ServerLimits {
  std::size_t max_body = 4096;
  int idle_seconds = 5;           // read and write timeouts
  int requests_per_second = 8;    // per device, averaged over two seconds
  int threads = 32;  // a slow client holds one for up to idle_seconds
};

class ClassServer : public ClassListener {
 public:
  explicit ClassServer(ClassRoom& room, ServerLimits limits = {});
  ~ClassServer() override;
  ClassServer(const ClassServer&) = delete;
  ClassServer& operator=(const ClassServer&) = delete;

  // Listens on `address` (an interface's IPv4 address; "127.0.0.1" for
  // tests) and `port` (0: any free one), serving on a thread of its own.
  // "" or why not ("the port 8080 is taken on 192.168.1.5").
  std::string start(const std::string& address, int port) override;
  // Stops listening and waits for the server's threads. Also on destruction.
  void stop() override;
  bool running() const;
  int port() const override;
  // "http://ADDRESS:PORT", what students type or the QR code holds.
  std::string join_address() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The factory the app hands the class feature (class_listener.hpp).
std::unique_ptr<ClassListener> make_class_server(ClassRoom& room);

}  // namespace model
