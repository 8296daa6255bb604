/**
 * The style and script of the report pages, inline in each page and allowed by hash in its
 * Content-Security-Policy. The script only reads the page's JSON data element and writes with
 * textContent; it unpacks a run's cases (gzip, base64) with the browser's DecompressionStream the
 * first time one of them is opened, which reads nothing from outside the page.
 */

export const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header,section{padding:10px 16px}
header{border-bottom:1px solid #ddd;background:#fff}
h1{font-size:18px;margin:0}
h2{font-size:16px;margin:0 0 6px}
.muted{color:#666;font-weight:normal}
.verdict{background:#fff;border-bottom:1px solid #ddd;border-left:8px solid #999}
.verdict.standing-held{border-left-color:#3a3}.verdict.standing-exposed{border-left-color:#c33}.verdict.standing-partial{border-left-color:#e90}
.headline{font-size:20px;margin:0 0 6px}.headline #controls{font-size:15px;margin-left:16px}
.kinds{list-style:none;padding:0;margin:0 0 6px;display:flex;gap:6px;flex-wrap:wrap}
.kinds li{padding:2px 8px;border-radius:3px}
table{border-collapse:collapse;font-size:12px}
th,td{border:1px solid #e2e2e2;padding:2px 6px;text-align:left;vertical-align:top}
th.cand{max-width:150px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.summary{table-layout:fixed}
.summary th:first-child{width:260px}.summary th.cand{width:128px}
.summary td{text-align:center}
.sum{cursor:pointer}
.sum:focus{outline:2px solid #000}
.summary tr.total th{background:#f3f3f3}
.summary tr.sep th{background:#fafafa;padding-top:10px}.summary tr.sep h2{font-size:14px;margin:0}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:6px}
.tiles .sum{padding:4px 8px;border-radius:3px;border:1px solid #ddd}.tiles .score{font-size:14px}
.held{background:#c8ecc8}.partial{background:#f7c98b}.none{background:#eee;color:#777}.zero{color:#999}
.pass{background:#c8ecc8}.exposed{background:#f4a3a3}.over-blocked{background:#f7c98b}.nonconformant{background:#f3eb9a}
.error{background:#c9b3e6}.unsupported{background:#e4e4e4;color:#555}.absent{background:#fff}.fail{background:#f4a3a3}
#candidates{margin-top:8px}
.filters{margin:6px 0 0}.filters label{margin-right:14px}
.legend span{display:inline-block;padding:1px 6px;margin-right:4px;border-radius:3px}
.matrix thead th{position:sticky;top:0;background:#fff;z-index:1}
.matrix tr{scroll-margin-top:26px}
.matrix tr.areahead th{background:#dde;font-size:13px}
.matrix tr.group th{background:#eef;font-weight:600}
.matrix td.cell{cursor:pointer;text-align:center;min-width:80px}
.matrix td.cell:focus,.matrix td.cell.selected{outline:2px solid #000}
.matrix td.cell.lit{box-shadow:inset 0 0 0 2px #1558d6}
body.only-exposed tr[data-row]:not([data-exposed]),body.only-failing tr[data-row]:not([data-failing]),body.only-differ tr[data-row]:not([data-differ]){display:none}
tr.detail-row>td{background:#fff;padding:8px 12px;border:2px solid #000}
#detail{max-width:1800px}
#detail h2{margin-top:0}
#detail pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font-size:12px}
#detail button{float:right}
table.findings{width:100%}
.sides{display:flex;gap:8px}.side{flex:1 1 50%;min-width:0}
.line{border-bottom:1px solid #eee;padding:2px 0}.line .who{font-size:11px;color:#555}
.gap,.cut{color:#a00;font-style:italic;font-size:11px}
`;

export const SCRIPT = `
(function(){
var data=JSON.parse(document.getElementById('gauntlet-data').textContent);
var matrix=document.getElementById('matrix');
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined&&text!==null)e.textContent=String(text);return e;}
var unpacked={};
function casesOf(c){
  if(!unpacked[c]){
    var bin=atob(data.runs[c].cases),bytes=new Uint8Array(bin.length);
    for(var i=0;i<bin.length;i++)bytes[i]=bin.charCodeAt(i);
    unpacked[c]=new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(JSON.parse);
  }
  return unpacked[c];
}
var ARROWS={agent:'agent \\u2192 broker',broker:'broker \\u2192 agent'};
var LEDGER={broker:'broker \\u2192 server',server:'server \\u2192 broker'};
function side(parent,title,entries,names,steps){
  var box=el('div','side');box.appendChild(el('h4',null,title));
  if(entries.length===0)box.appendChild(el('p','muted','nothing recorded'));
  entries.forEach(function(entry){
    if(entry.dropped!==undefined){box.appendChild(el('div','gap','\\u2026 '+entry.dropped+' line(s) left out here to keep the report bounded \\u2026'));return;}
    var line=el('div','line');
    var who=entry.ev&&entry.ev!=='recv'&&entry.ev!=='sent'?'server: '+entry.ev:names[entry.from];
    line.appendChild(el('div','who','step '+(steps[entry.step-1]||entry.step)+' \\u00b7 '+who+(entry.pid?' \\u00b7 pid '+entry.pid:'')));
    line.appendChild(el('pre',null,entry.text));
    if(entry.cut_from!==undefined)line.appendChild(el('div','cut','cut: '+entry.text.length+' of '+entry.cut_from+' characters shown'));
    box.appendChild(line);
  });
  parent.appendChild(box);
}
function show(detail,c,s,k){
  var run=data.runs[c],sc=data.scenarios[s];
  function section(title){var x=el('section');x.appendChild(el('h3',null,title));detail.appendChild(x);return x;}
  detail.textContent='';
  var close=el('button',null,'close');close.type='button';close.addEventListener('click',unpick);detail.appendChild(close);
  detail.appendChild(el('h2',null,sc.id));
  detail.appendChild(el('p',null,sc.title));
  var verdict=k?k.cell+(k.failure&&k.outcome==='fail'?' ('+(k.claimed?'claimed':'not claimed')+')':'')+(k.by_adapter&&k.outcome==='pass'?' (held by the adapter, not the broker: '+k.by_adapter.join(', ')+')':''):'not run';
  var head=el('p');head.appendChild(el('strong',null,run.name+': '));head.appendChild(el('span',k?k.cell:'absent',verdict));detail.appendChild(head);
  detail.appendChild(el('p','muted',sc.kind+' \\u00b7 '+sc.level+' \\u00b7 requirements '+sc.requirements.join(', ')+' \\u00b7 claims '+(sc.claims.join(', ')||'none')+(sc.control?' \\u00b7 control '+sc.control:'')+' \\u00b7 '+sc.file));
  if(run.link){var a=el('a',null,'this case in the run\\u2019s own report');a.href=run.link+'#case='+encodeURIComponent(sc.id);detail.appendChild(a);}
  if(!k)return;
  detail.appendChild(el('p','muted','duration '+k.duration_ms+' ms'+(k.control_outcome?' \\u00b7 its control: '+k.control_outcome:'')));
  if(k.reason!==null){section('Reason').appendChild(el('pre',null,k.reason));}
  var f=section('Expected against observed');
  if(k.findings.length===0)f.appendChild(el('p','muted',k.outcome==='pass'?'every check met':'no check failed'));
  else{var t=el('table','findings');var hr=el('tr');['check','class','step','expectation','expected','observed'].forEach(function(h){hr.appendChild(el('th',null,h));});t.appendChild(hr);
    k.findings.forEach(function(x){var r=el('tr');r.appendChild(el('td',null,x.check));r.appendChild(el('td',null,x.class));r.appendChild(el('td',null,x.step));r.appendChild(el('td',null,x.expectation));var e=el('td');e.appendChild(el('pre',null,x.expected));r.appendChild(e);var o=el('td');o.appendChild(el('pre',null,x.observed));r.appendChild(o);t.appendChild(r);});f.appendChild(t);}
  if(k.unchecked.length>0){var u=section('Not checked (hook missing)');k.unchecked.forEach(function(x){u.appendChild(el('div',null,x.check+' (needs '+x.hook+')'));});}
  if(k.notes.length>0){var n=section('Notes');k.notes.forEach(function(x){n.appendChild(el('pre',null,x));});}
  var tr=section('Transcript');
  // The stderr, often long and repetitive, comes after the transcript and folded.
  if(k.stderr_tail){var err=el('details');err.appendChild(el('summary',null,'End of the candidate\\u2019s stderr'));err.appendChild(el('pre',null,k.stderr_tail));detail.appendChild(err);}
  if(!k.transcript){tr.appendChild(el('p','muted','none recorded'));return;}
  tr.appendChild(el('p','muted','each line cut at '+k.transcript.bounds.line_chars+' characters, each side at about '+k.transcript.bounds.side_chars));
  var sides=el('div','sides');
  side(sides,'agent \\u2194 broker',k.transcript.agent,ARROWS,k.transcript.steps);
  side(sides,'broker \\u2194 server (ledger)',k.transcript.server,LEDGER,k.transcript.steps);
  tr.appendChild(sides);
}
var selected=null,detailRow=null,asked=0;
function unpick(){if(selected)selected.classList.remove('selected');if(detailRow)detailRow.remove();selected=null;detailRow=null;asked++;}
function pick(cell){
  if(cell===selected){unpick();return;}
  unpick();
  selected=cell;cell.classList.add('selected');
  detailRow=el('tr','detail-row');var td=el('td');td.colSpan=data.runs.length+1;detailRow.appendChild(td);
  var detail=el('div');detail.id='detail';td.appendChild(detail);
  detail.appendChild(el('p','muted','opening\\u2026'));
  cell.parentNode.after(detailRow);
  var c=cell.cellIndex-1,s=Number(cell.parentNode.dataset.s),mine=asked;
  casesOf(c).then(function(cases){if(mine===asked)show(detail,c,s,cases[s]);},function(error){if(mine===asked){detail.textContent='';detail.appendChild(el('p','error','this case could not be unpacked: '+error));}});
}
function toArea(cell){
  var area=cell.dataset.area,c=Number(cell.dataset.c);
  document.querySelectorAll('td.lit').forEach(function(x){x.classList.remove('lit');});
  var cells=Array.prototype.map.call(matrix.querySelectorAll('tr[data-area="'+area+'"][data-s]'),function(row){return row.cells[c+1];});
  cells.forEach(function(x){x.classList.add('lit');});
  var head=document.getElementById('area-'+area);if(head)head.scrollIntoView({block:'start'});
  var first=cells.find(function(x){return x.offsetParent!==null&&!x.classList.contains('pass');})||cells[0];
  if(first)first.focus({preventScroll:true});
}
function activate(selector,act){return function(ev){var cell=ev.target.closest(selector);if(!cell)return;if(ev.type==='keydown'){if(ev.key!=='Enter'&&ev.key!==' ')return;ev.preventDefault();}act(cell);};}
['click','keydown'].forEach(function(type){
  matrix.addEventListener(type,activate('td.cell',pick));
  document.getElementById('summary-areas').addEventListener(type,activate('.sum',toArea));
});
['exposed','failing','differ'].forEach(function(name){var box=document.getElementById('only-'+name);if(box){box.addEventListener('change',function(){document.body.classList.toggle('only-'+name,box.checked);});document.body.classList.toggle('only-'+name,box.checked);}});
var m=/^#case=(.+)$/.exec(location.hash);
if(m){var id=decodeURIComponent(m[1]);var s=data.scenarios.findIndex(function(x){return x.id===id;});var row=s<0?null:matrix.querySelector('tr[data-s="'+s+'"]'),cell=row&&row.cells[1];if(cell){pick(cell);cell.scrollIntoView();}}
})();
`;
