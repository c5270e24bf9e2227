// The student page's text. Plain DOM and fetch: it must work on any phone's
// browser at 320 px wide, so it uses large buttons and no framework.
#include "model/classroom/student_page.hpp"

namespace model {

const std::string& student_page_html() {
  static const std::string page = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>attnviz class</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:12px;max-width:640px;background:#fff;color:#111}
h1{font-size:20px;margin:4px 0 12px}
#prompt{font-size:19px;line-height:1.35;margin:10px 0}
button.choice{display:block;width:100%;min-height:52px;margin:8px 0;font-size:18px;border:2px solid #2c6fbb;border-radius:8px;background:#eef4fb;text-align:left;padding:8px 12px}
button.choice.picked{background:#2c6fbb;color:#fff}
button.send{min-height:48px;font-size:18px;padding:0 18px;margin-top:8px}
input{font-size:18px;min-height:44px;width:100%;box-sizing:border-box;padding:4px 8px}
table.grid{border-collapse:collapse;margin:8px 0;font-size:14px}
table.grid td,table.grid th{border:1px solid #999;min-width:40px;height:40px;text-align:center;padding:0 2px}
table.grid td{cursor:pointer;background:#f4f4f4}
table.grid td.picked{background:#2c6fbb}
table.grid td.truth{outline:3px solid #1a8f3a;outline-offset:-3px}
.gridbox{overflow-x:auto}
#status{margin-top:12px;font-size:17px}
.right{color:#1a7f32;font-weight:bold}.wrong{color:#b3261e;font-weight:bold}
#score{margin-top:14px;color:#555}
</style></head>
<body>
<h1>attnviz class <span id="code"></span></h1>
<div id="join">
<label>Session code<br><input id="codefield" autocapitalize="characters" autocomplete="off" maxlength="16"></label>
<label>Nickname (optional)<br><input id="nick" maxlength="40" autocomplete="off"></label>
<button class="send" id="joinbtn">Join</button>
</div>
<div id="question" hidden>
<div id="prompt"></div><div id="form"></div><div id="status"></div>
</div>
<div id="wait" hidden>Waiting for the next question…</div>
<div id="score"></div>
<script>
"use strict";
const store = window.localStorage;
function newId(){const a=new Uint8Array(12);crypto.getRandomValues(a);return Array.from(a,b=>b.toString(16).padStart(2,"0")).join("");}
let device = store.getItem("attnviz-device"); if(!device){device=newId();store.setItem("attnviz-device",device);}
const params = new URLSearchParams(location.search);
let code = (params.get("code")||store.getItem("attnviz-code")||"").toUpperCase();
let shownKey = "", picked = null, view = null;
const $ = id => document.getElementById(id);
$("codefield").value = code;
$("nick").value = store.getItem("attnviz-nick") || "";
async function api(path, body){
  const r = await fetch(path, body ? {method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify(body)} : {});
  let j = {}; try { j = await r.json(); } catch(e) {}
  if(!r.ok) throw new Error(j.error || ("the server said " + r.status));
  return j;
}
async function join(){
  code = $("codefield").value.trim().toUpperCase();
  try { await api("/api/join",{code,device,nickname:$("nick").value}); store.setItem("attnviz-code",code); store.setItem("attnviz-nick",$("nick").value); $("join").hidden=true; $("code").textContent=code; poll(); }
  catch(e){ $("status").textContent = e.message; $("question").hidden=false; }
}
$("joinbtn").onclick = join;
function score(){ const s = JSON.parse(store.getItem("attnviz-score-"+code)||"{}"); const n=Object.keys(s).length, r=Object.values(s).filter(x=>x).length; $("score").textContent = n ? ("Your score: "+r+" of "+n) : ""; }
async function send(answer){
  try { await api("/api/answer",{code,device,step:view.question.step,answer}); $("status").textContent="Sent, waiting for the reveal. You may change it until the teacher locks."; poll(); }
  catch(e){ $("status").textContent = e.message; }
}
function drawForm(q){
  const f = $("form"); f.textContent = "";
  if(q.form==="choice"){
    q.choices.forEach((c,i)=>{const b=document.createElement("button");b.className="choice";b.textContent=c;b.dataset.i=i;b.onclick=()=>{picked={choice:i};send(picked);};f.appendChild(b);});
  } else if(q.form==="cell"){
    const box=document.createElement("div");box.className="gridbox";const t=document.createElement("table");t.className="grid";
    const cap=document.createElement("caption");cap.textContent=q.grid;t.appendChild(cap);
    const head=document.createElement("tr");head.appendChild(document.createElement("th"));
    q.col_labels.forEach(l=>{const th=document.createElement("th");th.textContent=l;head.appendChild(th);});t.appendChild(head);
    for(let r=0;r<q.rows;r++){const tr=document.createElement("tr");const th=document.createElement("th");th.textContent=q.row_labels[r];tr.appendChild(th);
      for(let c=0;c<q.cols;c++){const td=document.createElement("td");td.dataset.r=r;td.dataset.c=c;td.onclick=()=>{picked={row:r,col:c};send(picked);};tr.appendChild(td);}
      t.appendChild(tr);}
    box.appendChild(t);f.appendChild(box);
  } else {
    const i=document.createElement("input");i.type="text";i.inputMode="decimal";i.id="number";const b=document.createElement("button");b.className="send";b.textContent="Send";
    b.onclick=()=>{const v=Number(i.value.replace(",","."));if(!isFinite(v)||i.value.trim()===""){$("status").textContent="Type a number first.";return;}picked={number:v};send(picked);};
    f.appendChild(i);f.appendChild(b);
  }
}
function mark(v){
  const q=v.question, mine=v.mine;
  document.querySelectorAll("button.choice").forEach(b=>b.classList.toggle("picked",!!mine&&mine.choice===Number(b.dataset.i)));
  document.querySelectorAll("table.grid td").forEach(td=>{const r=Number(td.dataset.r),c=Number(td.dataset.c);
    td.classList.toggle("picked",!!mine&&mine.row===r&&mine.col===c);
    td.classList.toggle("truth",!!v.truth&&!!v.truth.cells&&v.truth.cells.some(p=>p[0]===r&&p[1]===c));});
  const locked = v.phase!=="open"; document.querySelectorAll("#form button,#form input,#form td").forEach(e=>{if(e.tagName!=="TD")e.disabled=locked;});
  let s = "";
  if(v.phase==="open") s = mine ? "Sent, waiting for the reveal. You may change it until the teacher locks." : "Answer, then wait for the reveal.";
  else if(v.phase==="locked") s = mine ? "Answers are locked. Waiting for the reveal." : "Answers are locked.";
  else if(v.phase==="skipped") s = "The teacher skipped this question.";
  else if(v.phase==="revealed"){
    const t=v.truth||{}; let truth="";
    if(t.choice!==undefined) truth="The answer: "+q.choices[t.choice]+".";
    if(t.number!==undefined) truth="The value: "+Number(t.number.toPrecision(4))+".";
    if(t.cells) truth="The right cell is outlined in green.";
    s = truth; if(v.right===true) s += " You were right."; else if(v.right===false) s += " Yours was not it."; else s += " You did not answer.";
    if(v.right!==null&&v.right!==undefined){const k="attnviz-score-"+code;const sc=JSON.parse(store.getItem(k)||"{}");sc[q.step]=v.right;store.setItem(k,JSON.stringify(sc));}
  }
  $("status").textContent = s;
  $("status").className = v.phase==="revealed" ? (v.right===true?"right":(v.right===false?"wrong":"")) : "";
  score();
}
async function poll(){
  if(!code) return;
  try {
    const v = await api("/api/state?code="+encodeURIComponent(code)+"&device="+device);
    if(!v.joined){ $("join").hidden=false; $("question").hidden=true; $("wait").hidden=true; if(store.getItem("attnviz-code")===code) join(); return; }
    view = v; $("join").hidden=true; $("code").textContent=code;
    if(v.ended){ $("question").hidden=true; $("wait").hidden=false; $("wait").textContent="The session has ended. Thank you!"; return; }
    if(!v.question){ $("question").hidden=true; $("wait").hidden=false; return; }
    $("wait").hidden=true; $("question").hidden=false;
    const key = v.question.step+"/"+JSON.stringify(v.question);
    if(key!==shownKey){ shownKey=key; $("prompt").textContent=v.question.prompt; drawForm(v.question); }
    mark(v);
  } catch(e) { $("status").textContent = "Reconnecting… (" + e.message + ")"; }
}
if(code){ $("code").textContent=code; poll(); }
setInterval(poll, 1500);
document.addEventListener("visibilitychange", ()=>{ if(!document.hidden) poll(); });
</script></body></html>
)HTML";
  return page;
}

}  // namespace model
