// The machine's IPv4 addresses, for a server students reach on the local
// network: the class session listens on the interface the teacher picks, and
// by default on the one that carries the default route (the network the
// projector's laptop is on), never on every interface at once.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace attn::platform {

struct NetworkInterface {
  std::string name;     // "wlan0"
  std::string address;  // "192.168.1.5"
  bool default_route = false;  // the interface of the default route
  bool loopback = false;
};

// Every interface that is up and has an IPv4 address, the default route's
// first, loopback last; empty where they cannot be listed.
std::vector<NetworkInterface> ipv4_interfaces();

// The address a class server binds to by default: the default route's
// interface, else the first interface that is not loopback, else none.
std::optional<NetworkInterface> default_lan_interface();

// Reads the name of the default route's interface from the text of Linux's
// /proc/net/route (a header line, then "Iface Destination Gateway ..." rows);
// "" when no row has destination 0. Pure, so it is tested on fixed text.
std::string default_route_interface(const std::string& proc_net_route);

}  // namespace attn::platform
