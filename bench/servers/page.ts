/** The page both template servers render: a list of 20 items with values that need escaping. */

/** The Handlebars source (the kernel reads it from fluid/templates/list.html). */
export const PAGE_TEMPLATE = `<!doctype html>
<html><head><title>{{title}}</title></head>
<body>
<h1>{{title}}</h1>
<ul>
{{#each items}}  <li class="{{cls}}"><a href="/items/{{id}}">{{name}}</a> {{note}}</li>
{{/each}}</ul>
</body></html>
`;

/** The data rendered into it. */
export const PAGE_DATA = {
  title: 'Items & <things>',
  items: Array.from({ length: 20 }, (_, i) => ({ id: i, cls: i % 2 ? 'odd' : 'even', name: `Item <${i}>`, note: `"quoted" & 'single' ${i}` })),
};
