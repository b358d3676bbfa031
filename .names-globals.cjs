const ts = require('typescript'); const fs=require('fs'); const path=require('path');
const G = new Set(['SpreadsheetApp','PropertiesService','CacheService','LockService','UrlFetchApp','ScriptApp','Session','HtmlService','Utilities','DriveApp','Drive','MailApp','Logger','Charts','ContentService','CardService','GmailApp','DocumentApp','FormApp','CalendarApp','Sheets','Browser','XmlService','Jdbc','Maps']);
function walk(d){return fs.readdirSync(d).flatMap(n=>{const p=path.join(d,n);return fs.statSync(p).isDirectory()?walk(p):p.endsWith('.ts')?[p]:[]})}
for (const f of walk('src')) { const sf = ts.createSourceFile(f, fs.readFileSync(f,'utf8'), ts.ScriptTarget.ES2020, true);
 const visit=n=>{ if (ts.isIdentifier(n) && G.has(n.text)) { const p=n.parent;
   // skip property names (x.Drive), type references (GoogleAppsScript.X)
   if (ts.isPropertyAccessExpression(p) && p.name===n) {} else if (ts.isQualifiedName(p)) {} else if (ts.isPropertyAssignment(p)&&p.name===n){} else {
   const {line}=sf.getLineAndCharacterOfPosition(n.getStart()); console.log(f+':'+(line+1)+' '+n.text);} }
   ts.forEachChild(n,visit)}; visit(sf);}
