// What the class feature needs of a web server: start listening, stop, and
// say its address. The real one (class_server.hpp, cpp-httplib) lives in a
// library of its own that links the HTTP library and the model; the model
// layer sees only this, and the app hands the feature a way to make one.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace model {

class ClassRoom;

class ClassListener {
 public:
  virtual ~ClassListener() = default;
  // "" or why not ("the port 8765 is taken on 192.168.1.5").
  virtual std::string start(const std::string& address, int port) = 0;
  virtual void stop() = 0;
  virtual int port() const = 0;
  virtual std::string join_address() const = 0;  // "http://ADDRESS:PORT"
};

// Makes a server over `room`, which outlives it.
using MakeClassListener = std::function<std::unique_ptr<ClassListener>(ClassRoom& room)>;

}  // namespace model
